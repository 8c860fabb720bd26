/** A clock the tests move by hand, so lease expiry is decided, not waited for. */
export class TestClock {
  #now = new Date('2026-03-01T08:00:00.000Z').getTime();
  now = (): Date => new Date(this.#now);
  advance(ms: number): void {
    this.#now += ms;
  }
}
