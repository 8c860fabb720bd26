import { describe, expect, it } from 'vitest';
import { firstInOrder } from '../../src/references/schedule/first-in-order.js';

// The memory store's lease page: the first `limit` due records in due order, exactly what
// sorting them all and taking the first `limit` gave (memory-schedule.ts).

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Due {
  at: number | null;
  reference: string;
}

/** The lease's order: never scheduled first, then the earliest due, the reference breaking ties. */
const byDue = (a: Due, b: Due) => {
  const x = a.at ?? Number.NEGATIVE_INFINITY;
  const y = b.at ?? Number.NEGATIVE_INFINITY;
  if (x !== y) return x < y ? -1 : 1;
  return a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0;
};

describe('firstInOrder (the memory store lease page)', () => {
  it('equals sort-then-slice for random inputs, ties, nulls and every limit', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const next = random(seed);
      const count = Math.floor(next() * 60);
      const items: Due[] = Array.from({ length: count }, (_, i) => ({
        // Few distinct times: ties are common and the reference decides them.
        at: next() < 0.2 ? null : Math.floor(next() * 8),
        reference: `R-${String(Math.floor(next() * 1000)).padStart(4, '0')}-${i}`,
      }));
      for (const limit of [0, 1, 2, 5, count - 1, count, count + 3]) {
        if (limit < 0) continue;
        const expected = [...items].sort(byDue).slice(0, limit);
        expect(firstInOrder(items, limit, byDue)).toEqual(expected);
      }
    }
  });

  it('reads the input once and leaves it as it was', () => {
    const items: Due[] = [
      { at: 5, reference: 'c' },
      { at: null, reference: 'b' },
      { at: 1, reference: 'a' },
    ];
    const before = structuredClone(items);
    let reads = 0;
    const once = {
      *[Symbol.iterator]() {
        reads += 1;
        yield* items;
      },
    };
    expect(firstInOrder(once, 2, byDue).map((item) => item.reference)).toEqual(['b', 'a']);
    expect(reads).toBe(1);
    expect(items).toEqual(before);
  });
});
