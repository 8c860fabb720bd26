/**
 * The sandbox's own timers (automatic settlements). Kept in one place so that `close()` and
 * `reset()` cancel every one: a settlement must never fire into a sandbox that was reset, and a
 * pending timer must never keep a test process alive.
 */
export class SandboxTimers {
  readonly #timers = new Set<NodeJS.Timeout>();

  schedule(delayMs: number, task: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      task();
    }, delayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  get pending(): number {
    return this.#timers.size;
  }

  clearAll(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}
