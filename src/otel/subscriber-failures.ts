/**
 * What pesakit's own `diagnostics_channel` subscribers caught. Node rethrows a subscriber's
 * exception on the next tick as uncaught, which ends the process in the middle of the payment
 * that published the message; so every subscriber pesakit installs runs its body through
 * `guard`. A failure is counted under its kind, reported once per kind, and goes no further.
 */
export class SubscriberFailures<Kind extends string> {
  readonly #counts: Record<Kind, number>;
  readonly #report: (kind: Kind, error: unknown) => void;

  /** `report` is called for the first failure of each kind only. */
  constructor(kinds: readonly Kind[], report: (kind: Kind, error: unknown) => void) {
    this.#counts = Object.fromEntries(kinds.map((kind) => [kind, 0])) as Record<Kind, number>;
    this.#report = report;
  }

  /** `body`, safe to run as a subscriber or inside one: when it throws, undefined. */
  guard<A extends unknown[], R>(
    kind: Kind,
    body: (...args: A) => R,
  ): (...args: A) => R | undefined {
    return (...args) => {
      try {
        return body(...args);
      } catch (error) {
        this.#failed(kind, error);
        return undefined;
      }
    };
  }

  /** The failures caught so far, by kind. */
  counts(): Record<Kind, number> {
    return { ...this.#counts };
  }

  #failed(kind: Kind, error: unknown): void {
    this.#counts[kind] += 1;
    if (this.#counts[kind] !== 1) return;
    try {
      this.#report(kind, error);
    } catch {
      // A report that throws (an error whose message cannot be read) is still counted.
    }
  }
}
