import { ExpiringMap } from './expiring-map.js';

/**
 * The turns of one stored record, shared by every callback that names it (by `pesakit_ref` or
 * by its references) in this process: one head start and one status pull per window. A forger
 * who names a real record gets that record's turn once, not one per forged callback.
 */
export class RecordTurns {
  readonly #windowMs: number;
  readonly #headStarts = new ExpiringMap<true>();
  readonly #pulls = new ExpiringMap<true>();

  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /** True for the first callback naming `merchantReference` in a window: it goes ahead of orphans. */
  takeHeadStart(merchantReference: string): boolean {
    return take(this.#headStarts, merchantReference, this.#windowMs);
  }

  /** True for the first pull on behalf of `merchantReference` in a window. */
  takePull(merchantReference: string): boolean {
    return take(this.#pulls, merchantReference, this.#windowMs);
  }

  /** Gives the pull turn back (the pull failed before the platform answered). */
  returnPull(merchantReference: string): void {
    this.#pulls.delete(merchantReference);
  }
}

function take(turns: ExpiringMap<true>, key: string, windowMs: number): boolean {
  if (turns.get(key)) return false;
  turns.set(key, true, windowMs);
  return true;
}
