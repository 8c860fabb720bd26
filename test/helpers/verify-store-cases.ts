import { describe, expect, it } from 'vitest';
import { type StoreFactory, storeCaseNames, verifyStore } from '../../src/testing.js';

/**
 * Our own stores through `pesakit/testing`, one vitest test per case of the kit, so that a
 * failure names its case and the suite is the one merchants run. `skipped` names the cases the
 * store is expected to be unable to run (an in-process store cannot be restarted).
 */
export function describeStoreConformance(
  name: string,
  factory: StoreFactory,
  skipped: readonly string[] = [],
): void {
  describe(`${name} store passes pesakit/testing`, () => {
    it.each(storeCaseNames())(
      '%s',
      async (caseName) => {
        const result = await verifyStore(factory, { only: [caseName] });
        expect(result.failed).toEqual([]);
        if (skipped.includes(caseName)) {
          expect(result.skipped.map((each) => each.name)).toEqual([caseName]);
        } else {
          expect(result).toEqual({ passed: 1, failed: [], skipped: [] });
        }
        // The kit's own per-case limit (30 s) answers first, naming the case.
      },
      60_000,
    );
  });
}
