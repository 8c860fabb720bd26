/** The settlement timers, so `close()` and `reset()` cancel every one. */
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
