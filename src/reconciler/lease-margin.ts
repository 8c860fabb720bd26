import { setMaxListeners } from 'node:events';

/**
 * A check's lease margin ran out before its request could leave: it waited in the rate gate
 * behind a 429's pause (or in the transport's backoff for one) until too little of the lease was
 * left. Nothing was sent for it after the margin; the reconciler hands the record back
 * (`leaseExpired`), as it does a record whose margin ran out before a check took it
 * (due-records.ts). Internal: it never reaches the merchant.
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
 * The lease margin that requests share: every record of one leased page (they were leased
 * together, so their margins end at the same instant), or the checks waiting for one shared
 * pull. `until` is the instant (reconciler clock, ms) from which nothing may be sent for them;
 * `signal` is handed to the transport, so that the rate gate can abort a request of theirs
 * that a 429's pause would otherwise repeat past it (rate-gate.ts). One per page, not per
 * request: on Node 20 reading an AbortController's `signal` costs about 7 µs of CPU, more than
 * the reconciler's own work on a record; made only when a request first needs it.
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
      // Every request of the page in flight listens to it (the transport forwards it into each
      // attempt's own deadline): up to `concurrency` (256) at once, each removed when its
      // attempt ends. Node warns past 10 listeners, as if they leaked: they do not.
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

/**
 * The checks waiting for one shared pull (a payout history page, the airtime wallet), each
 * with the instant its margin runs out. The pull is worth sending while any of them is still
 * inside: its latest instant bounds the request (`latest`). Concurrency is at most 256, so an
 * array is all it needs.
 */
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
    let latest = Number.NEGATIVE_INFINITY;
    for (const until of this.#until) if (until > latest) latest = until;
    return latest;
  }
}

/**
 * Waits for a pull shared by many checks, as one of its waiters: the pull leaves the gate only
 * while some waiter is inside its margin, and a waiter whose own margin ran out meanwhile gets
 * {@link LeaseMarginSpent} instead of the answer — its record is handed back rather than decided
 * while another worker may hold it, even though the answer came for the others.
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
