import type { ReferenceStore } from '../references/index.js';

/**
 * The store as seen by one lease's holder: every `transition` carries the fencing token, so a
 * worker whose lease was taken over cannot write a final state.
 */
export function fencedStore(store: ReferenceStore, leaseToken: string): ReferenceStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'transition') {
        const transition: ReferenceStore['transition'] = (reference, to, details) =>
          target.transition(reference, to, { ...details, leaseToken });
        return transition;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
