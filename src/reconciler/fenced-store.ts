import type { ReferenceStore } from '../references/index.js';

/**
 * The store as seen by one lease's holder: every `transition` and `attachAndTransition` carries
 * the fencing token, so a worker whose lease was taken over cannot write a final state or claim
 * a platform reference.
 */
export function fencedStore(store: ReferenceStore, leaseToken: string): ReferenceStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'transition') {
        const transition: ReferenceStore['transition'] = (reference, to, details) =>
          target.transition(reference, to, { ...details, leaseToken });
        return transition;
      }
      if (property === 'attachAndTransition') {
        const claim: ReferenceStore['attachAndTransition'] = (reference, refs, to, details) =>
          target.attachAndTransition(reference, refs, to, { ...details, leaseToken });
        return claim;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
