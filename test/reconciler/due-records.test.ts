import { describe, expect, it } from 'vitest';
import { DueRecords } from '../../src/reconciler/due-records.js';
import type { ReferenceStore } from '../../src/references/index.js';
import type { LeaseDueOptions, LeasedRecord } from '../../src/references/schedule/types.js';

/**
 * A store whose leases are answered only when the test says so: `pages` of fake records
 * (references only — DueRecords looks at nothing else), and what had happened when each lease
 * was asked for.
 */
function slowStore(pageSizes: number[]) {
  const asked: Array<{ taken: number }> = [];
  const answers: Array<() => void> = [];
  let taken = 0;
  let made = 0;
  const store = {
    leaseDue(_options: LeaseDueOptions): Promise<LeasedRecord[]> {
      asked.push({ taken });
      const size = pageSizes[asked.length - 1] ?? 0;
      const page = Array.from({ length: size }, () => {
        made += 1;
        return {
          record: { merchantReference: `r-${made}` },
          token: `t-${made}`,
          nextCheckAt: null,
        };
      }) as unknown as LeasedRecord[];
      return new Promise((resolve) => answers.push(() => resolve(page)));
    },
  } as unknown as ReferenceStore;
  return {
    store,
    asked,
    answerNext: () => answers.shift()?.(),
    took: () => {
      taken += 1;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('DueRecords', () => {
  it('leases the next page while half the current one is still to be handed out', async () => {
    const slow = slowStore([10, 10, 3]);
    let flushed = 0;
    const due = new DueRecords(slow.store, {
      limit: 10,
      leaseMs: 60_000,
      stopped: () => false,
      beforeLease: () => {
        flushed += 1;
      },
    });
    const first = due.take();
    await settle();
    slow.answerNext();
    const references: string[] = [];
    const take = async () => {
      const leased = await (references.length === 0 ? first : due.take());
      if (leased) {
        slow.took();
        references.push(leased.record.merchantReference);
      }
      return leased;
    };
    for (let i = 0; i < 6; i += 1) await take();
    // The second lease was asked for at the middle of the first page, not at its end.
    expect(slow.asked).toEqual([{ taken: 0 }, { taken: 5 }]);
    expect(flushed).toBe(2);
    slow.answerNext();
    for (let i = 0; i < 4; i += 1) await take();
    // The first page ran dry: the next one is already there (nothing left to wait for).
    const eleventh = take();
    await settle();
    expect(await eleventh).toBeDefined();
    for (let i = 0; i < 4; i += 1) await take();
    expect(slow.asked).toHaveLength(2);
    await take(); // the second page's middle
    expect(slow.asked).toEqual([{ taken: 0 }, { taken: 5 }, { taken: 15 }]);
    slow.answerNext();
    for (let leased = await take(); leased; leased = await take()) {}
    // 10 + 10 + 3, each once, in order; the short page was the last.
    expect(references).toEqual(Array.from({ length: 23 }, (_, i) => `r-${i + 1}`));
    expect(await take()).toBeUndefined();
    expect(slow.asked).toHaveLength(3);
  });

  it('once the pass must stop, leases nothing more but hands out the page already leased ahead', async () => {
    const slow = slowStore([4, 4, 4]);
    let stopped = false;
    const due = new DueRecords(slow.store, {
      limit: 4,
      leaseMs: 60_000,
      stopped: () => stopped,
      beforeLease: () => {},
    });
    const first = due.take();
    await settle();
    slow.answerNext();
    expect((await first)?.record.merchantReference).toBe('r-1');
    await due.take();
    await due.take(); // the middle: the second page is leased ahead
    expect(slow.asked).toHaveLength(2);
    stopped = true;
    slow.answerNext();
    const handedOut: string[] = [];
    for (let leased = await due.take(); leased; leased = await due.take()) {
      handedOut.push(leased.record.merchantReference);
    }
    // r-4 of the first page and the whole second page: their checks hand each one back.
    expect(handedOut).toEqual(['r-4', 'r-5', 'r-6', 'r-7', 'r-8']);
    expect(slow.asked).toHaveLength(2);
  });
});
