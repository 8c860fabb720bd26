import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { describeCallbackInbox } from './inbox-conformance.js';
import { describeInboxPrune } from './inbox-prune-conformance.js';

describeCallbackInbox('memory', {
  open: async ({ now }) => new MemoryReferenceStore({ now }),
});

describeCallbackInbox('SQLite', {
  open: ({ now }) => SqliteReferenceStore.open(':memory:', { now }),
});

describeInboxPrune('memory', {
  open: async ({ now }) => new MemoryReferenceStore({ now }),
});

describeInboxPrune('SQLite', {
  open: ({ now }) => SqliteReferenceStore.open(':memory:', { now }),
});
