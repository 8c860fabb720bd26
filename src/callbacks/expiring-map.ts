/** A map whose entries expire; expired ones are swept as it grows, so a flood of distinct keys
 * (forged references) costs memory for one window only. */
export class ExpiringMap<V> {
  readonly #entries = new Map<string, { value: V; until: number }>();
  #sweepAt = 10_000;

  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || entry.until > Date.now()) return entry?.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number): void {
    this.#entries.set(key, { value, until: Date.now() + ttlMs });
    if (this.#entries.size < this.#sweepAt) return;
    const now = Date.now();
    for (const [name, entry] of this.#entries) if (entry.until <= now) this.#entries.delete(name);
    this.#sweepAt = Math.max(10_000, this.#entries.size * 2);
  }

  /** Deletes `key`, only while it still holds `value` when one is given. */
  delete(key: string, value?: V): void {
    if (value === undefined || this.#entries.get(key)?.value === value) this.#entries.delete(key);
  }
}
