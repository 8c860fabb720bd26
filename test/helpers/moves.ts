import type { ReferenceStore } from '../../src/references/types.js';
import { storeCalls } from '../../src/testing/store-calls.js';

/**
 * Records moved as pesakit moves them — through its ledger over `store.move()` — for setting up
 * a test: `transition`, `attachReferences`, `attachAndTransition` and a person's `resolve`.
 * A move the transitions refuse throws `InvalidTransitionError`.
 */
export function moves(store: ReferenceStore) {
  const { transition, attachReferences, attachAndTransition, resolve } = storeCalls(store);
  return { transition, attachReferences, attachAndTransition, resolve };
}
