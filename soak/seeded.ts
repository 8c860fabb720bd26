// Every choice the soak makes (which payment, which MSISDN, which process to kill and when) is
// drawn from the run's seed, so a run replays. The generator is small and well known
// (mulberry32 over an FNV-1a hash of the seed and a label); each concern draws from its own
// stream, so adding a draw to one never shifts another's.

export interface Draw {
  /** A number in [0, 1). */
  next(): number;
  /** A whole number in [min, max]. */
  between(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One of the items. */
  pick<T>(items: readonly T[]): T;
  /** A key chosen by its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The stream named `label` of the run seeded with `seed`. */
export function seeded(seed: number, label: string): Draw {
  let state = hash(`${seed}:${label}`);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    between,
    chance: (p) => next() < p,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from no items');
      return items[between(0, items.length - 1)] as (typeof items)[number];
    },
    weighted: (weights) => {
      const entries = Object.entries(weights) as Array<[keyof typeof weights, number]>;
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let point = next() * total;
      for (const [key, weight] of entries) {
        point -= weight;
        if (point < 0) return key;
      }
      return entries[entries.length - 1]![0];
    },
  };
}
