import { setMaxListeners } from 'node:events';

/** The margin ran out before the request left the rate gate: nothing sent, record handed back. */
export class LeaseMarginSpent extends Error {
  override name = 'LeaseMarginSpent';

  constructor() {
    super('The lease margin ran out before the request could leave the rate gate.');
  }
}

/**
 * The instant (ms) from which nothing may be sent for a page's or a shared pull's checks; its
 * lazily made `signal` lets the rate gate abort a request a 429's pause would repeat past it.
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

/** Waits for a shared pull; a waiter whose margin ran out meanwhile gets LeaseMarginSpent. */
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
