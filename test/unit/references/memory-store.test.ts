import { MemoryReferenceStore } from '../../../src/references/index.js';
import { describeReferenceStore } from '../../helpers/reference-store-conformance.js';

describeReferenceStore('memory', {
  open: async ({ now }) => new MemoryReferenceStore({ now }),
});
