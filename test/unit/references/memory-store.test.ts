import { MemoryReferenceStore } from '../../../src/references/index.js';
import { describeStoreConformance } from '../../helpers/verify-store-cases.js';

let current: MemoryReferenceStore | undefined;

// An in-memory store's data is the object itself: a second handle is the same object, and a
// restart loses everything, so the case that restarts the store cannot apply.
describeStoreConformance(
  'memory',
  {
    persistent: false,
    open: async ({ fresh, now }) => {
      if (fresh || current === undefined) current = new MemoryReferenceStore({ now });
      return current;
    },
  },
  [
    'records outlive the store that wrote them › another handle, after a restart, finds the transaction by any of its references',
  ],
);
