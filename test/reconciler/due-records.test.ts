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

/** A clock that never moves: no lease ever runs out (nothing goes to `expired`). */
const neverExpiring = {
  now: () => 0,
  marginMs: 15_000,
  expired: () => {
    throw new Error('no lease runs out on a clock that stands still');
  },
};

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
      ...neverExpiring,
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
      ...neverExpiring,
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

  it('drops the records whose lease has less than the margin left, from the page in hand and from the page leased ahead', async () => {
    const slow = slowStore([4, 4, 4, 1]);
    let clock = 10_000;
    const expired: string[] = [];
    const due = new DueRecords(slow.store, {
      limit: 4,
      leaseMs: 1_000,
      stopped: () => false,
      beforeLease: () => {},
      now: () => clock,
      marginMs: 250,
      expired: (leased) => expired.push(leased.record.merchantReference),
    });
    const first = due.take(); // page 1 asked for at 10 000: usable until 10 750
    await settle();
    clock = 10_500; // the store answers late: its lease ran from when it was asked for, or later
    slow.answerNext();
    expect((await first)?.record.merchantReference).toBe('r-1');
    clock = 10_700;
    expect((await due.take())?.record.merchantReference).toBe('r-2');
    // The middle: page 2 is leased ahead now (usable until 11 450); r-3 comes just too late.
    clock = 10_750;
    const third = due.take();
    await settle();
    expect(slow.asked).toHaveLength(2);
    clock = 11_000;
    slow.answerNext();
    // r-3 and r-4 are dropped, not handed out; the next record given is page 2's first.
    expect((await third)?.record.merchantReference).toBe('r-5');
    expect(expired).toEqual(['r-3', 'r-4']);
    expect((await due.take())?.record.merchantReference).toBe('r-6');
    // Page 2's middle: page 3 is leased ahead (at 11 000, usable until 11 750). Page 2 is
    // reached… and page 3, leased ahead, is reached too late: every one of its records dropped.
    expect((await due.take())?.record.merchantReference).toBe('r-7');
    expect(slow.asked).toHaveLength(3);
    slow.answerNext();
    clock = 11_449;
    expect((await due.take())?.record.merchantReference).toBe('r-8');
    clock = 11_750;
    const next = due.take();
    await settle();
    expect(slow.asked).toHaveLength(4); // page 3's middle, reached while dropping it
    slow.answerNext();
    // Page 4 (one record, the last) was asked for at 11 750: usable until 12 500.
    expect((await next)?.record.merchantReference).toBe('r-13');
    expect(expired).toEqual(['r-3', 'r-4', 'r-9', 'r-10', 'r-11', 'r-12']);
    expect(await due.take()).toBeUndefined();
  });

  it('hands out a record while its lease has more than the margin left, to the millisecond', async () => {
    const slow = slowStore([2]);
    let clock = 0;
    const expired: string[] = [];
    const due = new DueRecords(slow.store, {
      limit: 3, // a short page: the last
      leaseMs: 1_000,
      stopped: () => false,
      beforeLease: () => {},
      now: () => clock,
      marginMs: 250,
      expired: (leased) => expired.push(leased.record.merchantReference),
    });
    const first = due.take();
    await settle();
    slow.answerNext();
    clock = 749;
    expect((await first)?.record.merchantReference).toBe('r-1');
    clock = 750;
    expect(await due.take()).toBeUndefined();
    expect(expired).toEqual(['r-2']);
  });
});
