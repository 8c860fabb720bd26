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
  const schedule = {
    lease(_options: LeaseDueOptions): Promise<LeasedRecord[]> {
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
  };
  const store = { schedule } as unknown as ReferenceStore;
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
  it('leases the next page once the current one is handed out; a short page is the last', async () => {
    const slow = slowStore([3, 3, 1]);
    const due = new DueRecords(slow.store, {
      limit: 3,
      leaseMs: 60_000,
      stopped: () => false,
      ...neverExpiring,
    });
    const references: string[] = [];
    const take = async () => {
      const next = due.take();
      await settle();
      slow.answerNext();
      const leased = await next;
      if (leased) {
        slow.took();
        references.push(leased.record.merchantReference);
      }
      return leased;
    };
    for (let i = 0; i < 3; i += 1) await take();
    expect(slow.asked).toEqual([{ taken: 0 }]);
    await take();
    expect(slow.asked).toEqual([{ taken: 0 }, { taken: 3 }]);
    for (let leased = await take(); leased; leased = await take()) {}
    expect(references).toEqual(Array.from({ length: 7 }, (_, i) => `r-${i + 1}`));
    expect(slow.asked).toHaveLength(3);
  });

  it('checks waiting at the same time share one lease', async () => {
    const slow = slowStore([2, 0]);
    const due = new DueRecords(slow.store, {
      limit: 2,
      leaseMs: 60_000,
      stopped: () => false,
      ...neverExpiring,
    });
    const both = Promise.all([due.take(), due.take()]);
    await settle();
    slow.answerNext();
    const taken = await both;
    expect(taken.map((leased) => leased?.record.merchantReference)).toEqual(['r-1', 'r-2']);
    expect(slow.asked).toHaveLength(1);
  });

  it('once the pass must stop, leases nothing more but hands out the page in hand', async () => {
    const slow = slowStore([4, 4]);
    let stopped = false;
    const due = new DueRecords(slow.store, {
      limit: 4,
      leaseMs: 60_000,
      stopped: () => stopped,
      ...neverExpiring,
    });
    const first = due.take();
    await settle();
    slow.answerNext();
    expect((await first)?.record.merchantReference).toBe('r-1');
    stopped = true;
    const handedOut: string[] = [];
    for (let leased = await due.take(); leased; leased = await due.take()) {
      handedOut.push(leased.record.merchantReference);
    }
    // The rest of the page in hand: their checks hand each one back.
    expect(handedOut).toEqual(['r-2', 'r-3', 'r-4']);
    expect(slow.asked).toHaveLength(1);
  });

  it('drops the records whose lease has less than the margin left; the next page has its own', async () => {
    const slow = slowStore([4, 1]);
    let clock = 10_000;
    const expired: string[] = [];
    const due = new DueRecords(slow.store, {
      limit: 4,
      leaseMs: 1_000,
      stopped: () => false,
      now: () => clock,
      marginMs: 250,
      expired: (leased) => {
        expired.push(leased.record.merchantReference);
      },
    });
    const first = due.take(); // page 1 asked for at 10 000: usable until 10 750
    await settle();
    clock = 10_500; // the store answers late: its lease ran from when it was asked for, or later
    slow.answerNext();
    expect((await first)?.record.merchantReference).toBe('r-1');
    clock = 10_749;
    expect((await due.take())?.record.merchantReference).toBe('r-2');
    clock = 10_750;
    const next = due.take();
    await settle();
    // r-3 and r-4 are dropped, not handed out; page 2 is asked for at 10 750.
    expect(expired).toEqual(['r-3', 'r-4']);
    expect(slow.asked).toHaveLength(2);
    slow.answerNext();
    clock = 11_499;
    expect((await next)?.record.merchantReference).toBe('r-5');
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
      now: () => clock,
      marginMs: 250,
      expired: (leased) => {
        expired.push(leased.record.merchantReference);
      },
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
