import { type LogPage, PagedLog } from '../state/paged-log.js';
import { drawFault } from './draw.js';
import { type ChaosFault, type ChaosSettings, callbackFaults, chaosFaultNames } from './faults.js';

/** One fault drawn: the timeline of `GET _control/chaos`. */
export interface ChaosEntry {
  /** ISO 8601, from the sandbox's clock. */
  readonly at: string;
  readonly on: 'request' | 'callback';
  /** The route (`POST /api/sandbox/disbursement/payment`) or the callback's kind. */
  readonly target: string;
  /** The merchant reference (or `ref_id`, or the callback's payment reference); '' if none. */
  readonly reference: string;
  readonly attempt: number;
  readonly fault: ChaosFault;
  /** What the fault did, where it varies: the field a lie changed. */
  readonly detail?: string;
}

/** What chaos decided for one request; the hooks act on it. */
export interface RequestDecision {
  readonly fault: ChaosFault;
  /** The field a `contradict_*` lie changes. */
  readonly field?: 'amount' | 'msisdn' | 'name' | 'status';
}

/** The most identities whose attempts are counted; the oldest are forgotten past it. */
const ATTEMPTS_KEPT = 1_000_000;

/**
 * Seeded faults, drawn per request and per callback delivery from the seed and the request's
 * identity (target, reference, attempt), so a run replays. Counted faults (`POST _control/faults`)
 * stay in force beside it; chaos only adds draws.
 */
export class Chaos {
  #paused = false;
  #attempts = new Map<string, number>();
  #timeline: PagedLog<ChaosEntry>;
  #drawn = new Map<ChaosFault, number>();

  constructor(
    readonly settings: ChaosSettings | undefined,
    private readonly logLimit: number,
    private readonly now: () => string,
  ) {
    this.#timeline = new PagedLog(logLimit);
  }

  get enabled(): boolean {
    return this.settings !== undefined;
  }

  get paused(): boolean {
    return this.#paused;
  }

  /** Paused, nothing is drawn (attempts are still counted, so resuming keeps identities). */
  setPaused(paused: boolean): void {
    this.#paused = paused;
  }

  /** Draws for a merchant request among the faults that make sense for its route. */
  decideRequest(
    target: string,
    reference: string,
    applicable: readonly ChaosFault[],
  ): RequestDecision | undefined {
    const drawn = this.#draw('request', target, reference, applicable);
    if (!drawn) return undefined;
    const { fault, spare } = drawn;
    if (fault === 'contradict_answer' || fault === 'contradict_history') {
      const fields = ['amount', 'msisdn', 'status', 'name'] as const;
      // A payout's answer and row carry a name; the others lie about amount, MSISDN or status.
      const choices = target.endsWith('/disbursement/payment') ? fields : fields.slice(0, 3);
      const field = choices[Math.floor(spare * choices.length)] ?? 'amount';
      this.#log('request', target, reference, drawn.attempt, fault, field);
      return { fault, field };
    }
    this.#log('request', target, reference, drawn.attempt, fault);
    return { fault };
  }

  /** Draws for one callback delivery (one enqueue), identified by its kind and payment reference. */
  decideDelivery(kind: string, key: string): ChaosFault | undefined {
    const drawn = this.#draw('callback', kind, key, callbackFaults);
    if (!drawn) return undefined;
    this.#log('callback', kind, key, drawn.attempt, drawn.fault);
    return drawn.fault;
  }

  /** What `GET _control/chaos` says about the settings, beside the timeline. */
  describe() {
    const drawn = Object.fromEntries(
      chaosFaultNames.map((name) => [name, this.#drawn.get(name) ?? 0]),
    ) as Record<ChaosFault, number>;
    if (!this.settings) return { enabled: false as const, paused: this.#paused, drawn };
    const { seed, rate, faults, lateMs, callbackDelayMs } = this.settings;
    return {
      enabled: true as const,
      seed,
      rate,
      faults,
      lateMs,
      callbackDelayMs,
      paused: this.#paused,
      drawn,
    };
  }

  page(after?: number, limit?: number): LogPage<ChaosEntry & { seq: number }> {
    return this.#timeline.page(after, limit);
  }

  reset(): void {
    this.#paused = false;
    this.#attempts = new Map();
    this.#timeline = new PagedLog(this.logLimit);
    this.#drawn = new Map();
  }

  #draw(
    on: 'request' | 'callback',
    target: string,
    reference: string,
    applicable: readonly ChaosFault[],
  ) {
    const settings = this.settings;
    if (!settings) return undefined;
    const key = `${on}\n${target}\n${reference}`;
    const attempt = (this.#attempts.get(key) ?? 0) + 1;
    this.#attempts.delete(key);
    this.#attempts.set(key, attempt);
    if (this.#attempts.size > ATTEMPTS_KEPT) {
      const oldest = this.#attempts.keys().next().value;
      if (oldest !== undefined) this.#attempts.delete(oldest);
    }
    if (this.#paused) return undefined;
    const candidates = applicable.filter((fault) => settings.faults.includes(fault));
    const drawn = drawFault(
      settings.seed,
      { target: `${on} ${target}`, reference, attempt },
      settings.rate,
      candidates,
    );
    return drawn && { ...drawn, attempt };
  }

  #log(
    on: ChaosEntry['on'],
    target: string,
    reference: string,
    attempt: number,
    fault: ChaosFault,
    detail?: string,
  ): void {
    this.#drawn.set(fault, (this.#drawn.get(fault) ?? 0) + 1);
    this.#timeline.append({
      at: this.now(),
      on,
      target,
      reference,
      attempt,
      fault,
      ...(detail === undefined ? {} : { detail }),
    });
  }
}
