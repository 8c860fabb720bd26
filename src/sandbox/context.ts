import { LoginLimits } from './auth/login-limits.js';
import { TokenRegistry } from './auth/tokens.js';
import { Chaos } from './chaos/chaos.js';
import { CallbackDispatcher } from './delivery/dispatcher.js';
import { FaultBoard, type FaultSettings } from './delivery/faults.js';
import { CollectionEngine, type EngineTransport } from './engine/collection-engine.js';
import { SandboxTimers } from './engine/timers.js';
import { WalletBook } from './ledger.js';
import type { ResolvedSandboxOptions } from './options.js';
import { AccountBook } from './state/accounts.js';
import { AirtimeBook } from './state/airtime.js';
import { CollectionBook } from './state/collections.js';
import { DisbursementBook } from './state/disbursements.js';
import { type ActedRequest, type RequestLog, TransactionJournal } from './state/journal.js';
import { PagedLog } from './state/paged-log.js';
import { SmsOutbox } from './state/sms.js';

export class SandboxContext {
  // The books: `clear()` replaces every one with an empty one.
  accounts!: AccountBook;
  tokens!: TokenRegistry;
  wallets!: WalletBook;
  collections!: CollectionBook;
  airtime!: AirtimeBook;
  disbursements!: DisbursementBook;
  sms!: SmsOutbox;
  /** Every transaction of every product, in creation order (the control API lists it). */
  journal!: TransactionJournal;
  /** Every money request acted on, with its merchant reference (for a verifier). */
  requests!: RequestLog;
  /** Payouts whose history row lies (`contradict` in history): refid → field. */
  historyLies!: Map<string, 'amount' | 'msisdn' | 'name' | 'status'>;
  /** Failed-login limits; not emptied by reset (their windows expire by themselves). */
  readonly loginLimits: LoginLimits;
  readonly timers = new SandboxTimers();
  readonly dispatcher: CallbackDispatcher;
  readonly engine: CollectionEngine;
  /** Faults in force; the control API patches them, the dispatcher counts `drop` down. */
  readonly faultBoard: FaultBoard;
  /** Seeded faults drawn per request and per callback; off unless the `chaos` option is set. */
  readonly chaos: Chaos;
  /** `http://host:port` once listening; links fall back to it. */
  selfUrl: string | undefined;
  #engineTransport: EngineTransport | undefined;

  constructor(readonly options: ResolvedSandboxOptions) {
    this.#openBooks();
    this.faultBoard = new FaultBoard(options.faults);
    this.chaos = new Chaos(options.chaos, options.logLimit, () => this.nowIso());
    const chaos = this.chaos;
    this.loginLimits = new LoginLimits(options.loginLimits, () => this.now().getTime());
    this.dispatcher = new CallbackDispatcher({
      ...(options.callbackSchedule ? { schedule: options.callbackSchedule } : {}),
      faults: this.faultBoard,
      clock: options.clock,
      logLimit: options.logLimit,
      ...(options.chaos
        ? {
            chaos: {
              draw: (delivery) => chaos.decideDelivery(delivery.kind, delivery.key),
              delayMs: options.chaos.callbackDelayMs,
            },
          }
        : {}),
    });
    this.engine = new CollectionEngine(
      (payload) => {
        if (!this.#engineTransport) throw new Error('the engine transport is not connected');
        return this.#engineTransport(payload);
      },
      this.timers,
      () => this.now(),
    );
  }

  /** The server connects the engine to its own callback route once it knows how to reach it. */
  connectEngine(transport: EngineTransport): void {
    this.#engineTransport = transport;
  }

  now(): Date {
    return this.options.clock.now();
  }

  nowIso(): string {
    return this.now().toISOString();
  }

  /** Empties every book, cancels pending settlements and deliveries, restores start-up faults. */
  clear(): void {
    this.timers.clearAll();
    this.dispatcher.reset();
    this.faultBoard.reset();
    this.chaos.reset();
    this.#openBooks();
  }

  #openBooks(): void {
    const nowIso = () => this.nowIso();
    this.accounts = new AccountBook(nowIso);
    this.tokens = new TokenRegistry();
    this.wallets = new WalletBook(nowIso);
    this.collections = new CollectionBook();
    this.airtime = new AirtimeBook();
    this.disbursements = new DisbursementBook();
    this.sms = new SmsOutbox(nowIso);
    this.journal = new TransactionJournal();
    this.requests = new PagedLog<ActedRequest>(this.options.logLimit);
    this.historyLies = new Map();
  }

  /** Logs a money request the sandbox acted on (the request log a verifier reads). */
  actedOn(request: Omit<ActedRequest, 'at'>): void {
    this.requests.append({ at: this.nowIso(), ...request });
  }

  get faults(): FaultSettings {
    return this.faultBoard.settings;
  }

  /** Counts and balances that any state change would alter; used to prove rejections change nothing. */
  snapshot() {
    const wallets = Object.fromEntries(
      [...this.wallets.all()].map(([key, { balance, entries }]) => [
        key,
        { balance, entries: entries.length },
      ]),
    );
    return {
      accounts: this.accounts.count(),
      tokens: this.tokens.size,
      collections: this.collections.all().length,
      collectionStatuses: this.collections.all().map((record) => record.status),
      airtimePayments: this.airtime.payments.length,
      recharges: [...this.airtime.recharges.values()].map((record) => record.status),
      disbursements: this.disbursements.records.length,
      sms: this.sms.list().length,
      wallets,
      deliveries: this.dispatcher.log().length,
    };
  }
}

export type StateSnapshot = ReturnType<SandboxContext['snapshot']>;
