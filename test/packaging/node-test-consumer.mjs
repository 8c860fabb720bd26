// The built pesakit/testing under `node --test`, one test per case, as docs/reference-store.md
// shows a merchant: the memory store from the root passes every case but the restart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryReferenceStore } from 'pesakit';
import { storeCaseNames, verifyStore } from 'pesakit/testing';

let memory;
const factory = {
  persistent: false,
  open: async ({ fresh, now }) => {
    if (fresh || memory === undefined) memory = new MemoryReferenceStore({ now });
    return memory;
  },
};

for (const name of storeCaseNames()) {
  test(name, async () => {
    const { failed, skipped } = await verifyStore(factory, { only: [name] });
    assert.deepEqual(failed, []);
    if (!name.startsWith('records outlive the store')) assert.deepEqual(skipped, []);
  });
}
