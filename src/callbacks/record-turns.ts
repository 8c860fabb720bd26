import { ExpiringMap } from './expiring-map.js';

/** Distinct callbacks one open record may store an hour: a platform sends one or two. */
export const entriesPerRecordPerHour = 8;

/**
 * The turns of one stored record, shared by every callback that names it (by `pesakit_ref` or
 * by its references) in this process: one head start and one status pull per window. A forger
 * who names a real record gets that record's turn once, not one per forged callback.
 */
export class RecordTurns {
  readonly #windowMs: number;
  readonly #headStarts = new ExpiringMap<true>();
  readonly #pulls = new ExpiringMap<true>();
  readonly #entries = new ExpiringMap<Set<string>>();

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

  /**
   * True when a callback (`dedupKey`) may be stored for the record: one it stored this hour (a
   * redelivery), or one of its first {@link entriesPerRecordPerHour} distinct ones.
   */
  admit(merchantReference: string, dedupKey: string): boolean {
    const keys = this.#entries.get(merchantReference);
    if (keys?.has(dedupKey)) return true;
    if (keys === undefined) {
      this.#entries.set(merchantReference, new Set([dedupKey]), 3_600_000);
      return true;
    }
    if (keys.size >= entriesPerRecordPerHour) return false;
    keys.add(dedupKey);
    return true;
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
