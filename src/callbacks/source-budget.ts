export interface SourceBudgetLimits {
  callbacksPerMinute: number;
  bytesPerMinute: number;
}

/** What one source address may store a minute: a forger cannot fill the disk, and the
 * platform's own addresses never come near it. Counted in this process, per fixed minute. */
export class SourceBudget {
  readonly #limits: SourceBudgetLimits;
  readonly #used = new Map<string, { callbacks: number; bytes: number }>();
  #windowStart = Number.NEGATIVE_INFINITY;

  constructor(limits: SourceBudgetLimits) {
    this.#limits = limits;
  }

  /** Counts one callback of `bytes` from `source`: 0 if within the budget, else the seconds to wait. */
  take(source: string, bytes: number, now: number): number {
    if (now - this.#windowStart >= 60_000) {
      this.#windowStart = now;
      this.#used.clear();
    }
    const used = this.#used.get(source) ?? { callbacks: 0, bytes: 0 };
    const { callbacksPerMinute, bytesPerMinute } = this.#limits;
    if (used.callbacks >= callbacksPerMinute || used.bytes + bytes > bytesPerMinute) {
      return Math.max(1, Math.ceil((this.#windowStart + 60_000 - now) / 1000));
    }
    this.#used.set(source, { callbacks: used.callbacks + 1, bytes: used.bytes + bytes });
    return 0;
  }
}
