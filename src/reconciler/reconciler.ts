import { EventEmitter } from 'eventemitter3';
import type { Transport } from '../core/transport.js';
import { PesakitError } from '../errors/pesakit-error.js';
import { inspectAs } from '../internal/inspect-as.js';
import { Ledger } from '../ledger/ledger.js';
import { traced } from '../observability/traced.js';
import { notVisibleWarning } from '../references/account.js';
import type { ReferenceStore } from '../references/index.js';
import { merchantKey } from '../references/rate-limit/merchant-key.js';
import type { RecordAccount } from '../references/record.js';
import { isLeaseLostError } from '../references/schedule/lease-lost-error.js';
import type { Product } from '../schemas/product.js';
import { EffectRunner } from '../settlement/effects.js';
import type { CheckContext, CheckOutcome } from './check-context.js';
import { decide } from './decide.js';
import type { DueRecord } from './due-records.js';
import type { ReconcileProgress, ReconcilerEvents, ReconcileSummary } from './events.js';
import { LeaseMarginSpent } from './lease-margin.js';
import {
  type ReconcilerOptions,
  type ResolvedOptions,
  resolveOptions,
  warnIfShortSettleWindow,
} from './options.js';
import { type PassRun, startPass } from './pass-context.js';
import { type Platform, transportPlatform } from './platform.js';
import { RateGate } from './rate-gate.js';
import { reconcileUnit } from './reconcile-unit.js';
import { firstDueAt, nextCheckAt } from './schedule.js';
import { type ReconcilerSnapshot, reconcilerSnapshot } from './snapshot.js';
import { countUnhandledEffects } from './unhandled-effects.js';

/** What the reconciler runs on (built by `pesakit.createReconciler`). */
export interface ReconcilerDependencies {
  store: ReferenceStore;
  transport: Transport;
  credentials: Readonly<Partial<Record<Product, unknown>>>;
  /**
   * The client's account of each product: a record of another account or environment is not
   * pulled (`not_visible`). @default every record is this client's
   */
  account?: (product: Product) => RecordAccount;
  /** The clock. @default () => new Date() */
  now?: () => Date;
}

export interface RunOnceOptions {
  /** Check every open record now, due or not (once each): the CLI's `--all`. */
  force?: boolean;
  /** Stops leasing new records; the checks in flight finish. */
  signal?: AbortSignal;
}

/** Pulls every open record to a final state or `needs_review`: scheduled, leased and fenced. */
export class Reconciler extends EventEmitter<ReconcilerEvents> {
  readonly #store: ReferenceStore;
  readonly #ledger: Ledger;
  readonly #options: ResolvedOptions;
  readonly #gate: RateGate;
  readonly #platform: Platform;
  // Claims only the kinds it has handlers for: without any (the CLI), every effect stays due.
  readonly #effects: EffectRunner;
  readonly #transport: Transport;
  readonly #now: () => Date;
  readonly #account: ((product: Product) => RecordAccount) | undefined;
  #pass: Promise<ReconcileSummary> | undefined;
  #running = false;
  #closing = false;
  #timer: NodeJS.Timeout | undefined;
  #loop: Promise<void> | undefined;

  constructor(dependencies: ReconcilerDependencies, options: ReconcilerOptions = {}) {
    super();
    this.#options = resolveOptions(options);
    warnIfShortSettleWindow(this.#options);
    this.#store = dependencies.store;
    this.#ledger = new Ledger(dependencies.store);
    this.#transport = dependencies.transport;
    this.#now = dependencies.now ?? (() => new Date());
    this.#account = dependencies.account;
    this.#gate = new RateGate({
      concurrency: this.#options.concurrency,
      ratePerSecond: this.#options.ratePerSecond,
      rateLimit: this.#store.rateLimit,
      key: (product) => (this.#account ? merchantKey(this.#account(product)) : 'default'),
      now: () => this.#now().getTime(),
      onError: (error) => this.emit('error', error),
    });
    this.#gate.onPause = (ms) => this.emit('paused', { ms });
    this.#platform = transportPlatform(this.#transport, this.#gate, dependencies.credentials);
    this.#effects = new EffectRunner(this.#store, options, { leaseMs: this.#options.leaseMs });
    this.#effects.on('effect_failed', (event) => this.emit('error', event.error));
    this.#effects.on('dead', (event) => this.emit('error', event.error));
  }

  /** One pass over everything due (`force`: every open record); a running pass is joined. */
  runOnce(options: RunOnceOptions = {}): Promise<ReconcileSummary> {
    if (this.#closing) {
      return Promise.reject(
        new PesakitError('This reconciler is closed; create a new one to run again.'),
      );
    }
    this.#pass ??= this.#runPass(options).finally(() => {
      this.#pass = undefined;
    });
    return this.#pass;
  }

  /** Keeps running passes, `pollIntervalMs` apart, until `close()`. Errors are emitted. */
  start(): this {
    if (this.#running || this.#closing) return this;
    this.#running = true;
    const tick = async () => {
      if (!this.#running) return;
      try {
        await this.runOnce();
      } catch (error) {
        this.emit('error', error);
      }
      if (!this.#running) return;
      this.#timer = setTimeout(() => {
        this.#loop = tick();
      }, this.#options.pollIntervalMs);
    };
    this.#loop = tick();
    return this;
  }

  /** Stops: no new leases; the checks in flight finish and their leases are released. */
  async close(): Promise<void> {
    this.#running = false;
    this.#closing = true;
    clearTimeout(this.#timer);
    await this.#pass?.catch(() => {});
    await this.#loop;
    await this.#gate.close();
  }

  /** State and options for `JSON.stringify`, without the client or the circular listener table. */
  toJSON(): ReconcilerSnapshot {
    return reconcilerSnapshot({
      running: this.#running,
      closed: this.#closing,
      passInProgress: this.#pass !== undefined,
      options: this.#options,
      handles: this.#effects.handles,
    });
  }

  async #runPass(options: RunOnceOptions): Promise<ReconcileSummary> {
    const started = Date.now();
    const { run, due } = startPass({
      store: this.#store,
      options: this.#options,
      platform: this.#platform,
      now: () => this.#now(),
      force: options.force ?? false,
      stopped: () => this.#closing || options.signal?.aborted === true,
      onError: (error) => this.emit('error', error),
      onProgress: (progress) => this.#emitProgress(progress),
    });
    const worker = async () => {
      for (let leased = await due.take(); leased; leased = await due.take()) {
        await this.#check(leased, run);
      }
    };
    // Listening only during a pass: a reconciler never closed must not leave a listener behind.
    const unwatch = this.#gate.watchRetries(this.#transport.events);
    const workers = await Promise.allSettled(
      Array.from({ length: this.#options.concurrency }, worker),
    ).finally(async () => {
      unwatch();
      await run.releaseHeld();
    });
    const failed = workers.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    let unhandledEffects: ReconcileSummary['unhandledEffects'] = {};
    try {
      await this.#effects.drain({ limit: this.#options.batchSize });
      unhandledEffects = await countUnhandledEffects(this.#store, this.#effects.handles);
    } catch (error) {
      this.emit('error', error);
    }
    return { ...run.progress, unhandledEffects, durationMs: Date.now() - started };
  }

  async #check(leased: DueRecord, run: PassRun): Promise<void> {
    const { pass, progress, force, stopped, release } = run;
    const { token } = leased;
    const reference = leased.record.merchantReference;
    const now = this.#now();
    if (stopped()) {
      // Closing: hand the record back as due, without counting a check.
      await release({
        merchantReference: reference,
        token,
        nextCheckAt: leased.nextCheckAt ?? now,
        counted: false,
      });
      return;
    }
    // Even a forced pass leaves an initiating record within its grace alone (a clock moved back).
    const inFlight =
      leased.record.status === 'initiating' &&
      now.getTime() - leased.record.createdAt.getTime() < this.#options.initiatingGraceMs;
    const notYet = force && !inFlight ? undefined : firstDueAt(leased.record, this.#options, now);
    if (notYet) {
      await release({ merchantReference: reference, token, nextCheckAt: notYet, counted: false });
      return;
    }
    // Another account's record would answer 404 (or be absent from the payout history): that
    // proves nothing, so it is not pulled, and stays open for a client that can see it.
    const account = this.#account?.(leased.record.product);
    const warning = account && notVisibleWarning(leased.record, account);
    if (warning) {
      if (!run.hold(leased)) return; // Met earlier in this pass: its lease had expired.
      progress.notVisible += 1;
      this.emit('warning', warning, leased.record);
      this.#emitProgress(progress);
      return;
    }
    const ctx: CheckContext = {
      store: this.#store,
      ledger: this.#ledger.fenced(token),
      leased,
      record: leased.record,
      now,
      margin: leased.margin,
      options: this.#options,
      platform: this.#platform,
      pass,
    };
    let outcome: CheckOutcome;
    try {
      outcome = await traced(reconcileUnit(leased.record), () => decide(ctx));
    } catch (error) {
      if (isLeaseLostError(error)) return; // Another worker holds the record now.
      // Its pull was held back (a 429's pause) past its lease margin: not sent, handed back.
      if (error instanceof LeaseMarginSpent) {
        await run.expired(leased);
        return;
      }
      progress.errors += 1;
      progress.checked += 1;
      this.emit('error', error, leased.record);
      await release({
        merchantReference: reference,
        token,
        nextCheckAt: nextCheckAt(leased.record, leased.record.checkCount + 1, this.#options, now),
        checkedAt: now,
        observation: { at: now, error: errorSummary(error) },
      });
      this.#emitProgress(progress);
      return;
    }
    progress.checked += 1;
    await this.#finish(ctx, outcome, run);
    this.#emitProgress(progress);
  }

  #emitProgress(progress: ReconcileProgress): void {
    if (this.listenerCount('progress') > 0) this.emit('progress', { ...progress });
  }

  async #finish(
    ctx: CheckContext,
    outcome: CheckOutcome,
    { progress, release, force, hold }: PassRun,
  ) {
    const reference = ctx.record.merchantReference;
    const { token } = ctx.leased;
    if (outcome.kind === 'pending') {
      progress.pending += 1;
      const after = outcome.record ?? ctx.record;
      const scheduled = nextCheckAt(after, after.checkCount + 1, this.#options, ctx.now);
      const due = outcome.dueAt && outcome.dueAt > scheduled ? outcome.dueAt : scheduled;
      // Not pulled, so not counted as a check: a forced page would lease it again at once.
      if (force && !outcome.pulled) {
        hold(ctx.leased, due);
        return;
      }
      await release({
        merchantReference: reference,
        token,
        nextCheckAt: due,
        checkedAt: ctx.now,
        counted: outcome.pulled,
        ...(outcome.pulled ? { observation: outcome.answer ?? null } : {}),
      });
      return;
    }
    // Final or in review: the record leaves the open statuses, the lease only needs ending.
    await release({
      merchantReference: reference,
      token,
      nextCheckAt: ctx.now,
      checkedAt: ctx.now,
      ...(outcome.kind === 'already_final' ? {} : { observation: outcome.answer ?? null }),
    });
    // A move this check did not make (another path won it meanwhile) is not this pass's.
    if (outcome.kind === 'already_final' || !outcome.changed) return;
    progress[
      outcome.kind === 'settled' ? 'settled' : outcome.kind === 'failed' ? 'failed' : 'review'
    ] += 1;
    if (outcome.kind === 'settled') this.emit('settled', outcome.record);
    else if (outcome.kind === 'failed') this.emit('failed', outcome.record);
    else if (outcome.verdict) this.emit('review', outcome.record, outcome.verdict);
    try {
      await this.#effects.runFor(reference);
    } catch (error) {
      this.emit('error', error, outcome.record);
    }
  }
}

// `util.inspect` (console.log) shows toJSON()'s snapshot, not the listener table.
inspectAs(Reconciler, 'Reconciler');

/** An error as evidence (messages are already redacted). */
function errorSummary(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}
