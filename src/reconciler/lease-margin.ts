import { setMaxListeners } from 'node:events';

/**
 * A check's lease margin ran out before its request could leave the rate gate (it waited behind
 * a 429's pause): nothing was sent, and the reconciler hands the record back. Never reaches the
 * merchant.
 */
export class LeaseMarginSpent extends Error {
  override name = 'LeaseMarginSpent';

  constructor() {
    super('The lease margin ran out before the request could leave the rate gate.');
  }
}

export function isLeaseMarginSpent(error: unknown): error is LeaseMarginSpent {
  return error instanceof LeaseMarginSpent;
}

/**
 * The instant (reconciler clock, ms) from which nothing may be sent for a set of checks: one
 * leased page, or the checks sharing one pull. `signal` lets the rate gate abort a request that
 * a 429's pause would otherwise repeat past it. One per page, made lazily: an AbortController
 * per request costs more than the reconciler's own work on a record.
 */
export class LeaseMargin {
  readonly #until: () => number;
  #controller: AbortController | undefined;

  constructor(until: () => number) {
    this.#until = until;
  }

  get until(): number {
    return this.#until();
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      // Up to `concurrency` requests listen at once, each removed when it ends: not a leak.
      setMaxListeners(0, this.#controller.signal);
    }
    return this.#controller.signal;
  }

  /** Aborts every request sent with this margin's signal; the requests that follow too. */
  abort(): void {
    this.#controller ??= new AbortController();
    this.#controller.abort(new LeaseMarginSpent());
  }

  get aborted(): boolean {
    return this.#controller?.signal.aborted === true;
  }
}

/** The checks waiting for one shared pull, each with the instant its margin runs out. */
export class MarginWaiters {
  readonly #until: number[] = [];

  /** Registers one waiter; returns the function that removes it (once). */
  add(usableUntil: number): () => void {
    this.#until.push(usableUntil);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#until.splice(this.#until.indexOf(usableUntil), 1);
    };
  }

  /** The latest instant any waiter is still usable until (−∞ with none: nothing to pull for). */
  latest(): number {
    return Math.max(Number.NEGATIVE_INFINITY, ...this.#until);
  }
}

/**
 * Waits for a pull shared by many checks: the pull leaves the gate while some waiter is inside
 * its margin, and a waiter whose own margin ran out meanwhile gets {@link LeaseMarginSpent}
 * instead of the answer, so its record is handed back rather than decided under another's lease.
 */
export async function awaitShared<T>(
  waiters: MarginWaiters,
  usableUntil: number,
  now: () => number,
  pull: () => Promise<T>,
): Promise<T> {
  const leave = waiters.add(usableUntil);
  let answer: T;
  try {
    answer = await pull();
  } finally {
    leave();
  }
  if (now() >= usableUntil) throw new LeaseMarginSpent();
  return answer;
}
