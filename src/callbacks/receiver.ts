import { EventEmitter } from 'eventemitter3';
import { ConfigurationError } from '../errors/configuration-error.js';
import { inspectAs } from '../internal/inspect-as.js';
import type { RecordAccount } from '../references/record.js';
import type { ReferenceStore } from '../references/types.js';
import type { Product } from '../schemas/product.js';
import { EffectRunner } from '../settlement/effects.js';
import { BacklogGauge } from './backlog-gauge.js';
import { receiveGet, receivePost } from './callback-intake.js';
import { answerCheckoutReturn } from './checkout-return-handler.js';
import type { CallbackReceiverEvents } from './events.js';
import { ExpiringMap } from './expiring-map.js';
import { handleClaim } from './handle-claim.js';
import { jsonResponse, type ReceivedRequest, type ReceiverResponse } from './http.js';
import { InboxRetention } from './inbox-retention.js';
import { InboxWorker } from './inbox-worker.js';
import {
  type CallbackReceiverOptions,
  type ResolvedReceiverOptions,
  resolveOptions,
} from './options.js';
import { asError, type ProcessContext } from './process-entry.js';
import { type CallbackReceiverDescription, describeReceiver } from './receiver-description.js';
import { RecordTurns } from './record-turns.js';
import type { ReturnUrls } from './return-urls.js';
import { SourceBudget } from './source-budget.js';
import { defaultPullLimits, type PullStatus, StatusPuller } from './status-puller.js';

/** Per-call options of `receive()`: return redirects that win over the receiver's own. */
export interface ReceiveOptions {
  returnUrls?: ReturnUrls;
}

export interface ReceiverDependencies {
  store: ReferenceStore;
  pull: PullStatus;
  now?: () => Date;
  /** Whether `pull` can authenticate now; when not, `start()` refuses. @default always yes */
  canPull?: () => boolean;
  /**
   * The status puller (window, rate limit) this receiver shares: a `Pesakit` client's, with its
   * `verifyCheckoutReturn`. @default its own, pulling with `pull` under the default limits
   */
  puller?: StatusPuller;
  /**
   * The client's account of each product: a callback naming a record of another account or
   * environment does not pull it (`not_visible`). @default every record is this client's
   */
  account?: (product: Product) => RecordAccount;
}

const noCollectionCredentials =
  'receiver.start(): processing a callback pulls the payment status from the platform ' +
  "(collection.status), which needs the collection product's credentials, and this client has " +
  'none. Pass `credentials: { collection: { email, password } }` to `new Pesakit()`, or call ' +
  "`pesakit.setToken('collection', token)` before `start()`. (Disbursement and airtime send no " +
  'callbacks to the merchant: without collections there is nothing to receive; reconcile ' +
  'payouts and airtime with `pesakit.createReconciler()`.)';

/** Receives callbacks (stored raw, 200) and checkout returns; `start()` pulls and settles them. */
export class CallbackReceiver extends EventEmitter<CallbackReceiverEvents> {
  /** Bodies larger than this answer 413; adapters may stop reading early. */
  readonly maxBodyBytes: number;
  readonly #store: ReferenceStore;
  readonly #options: ResolvedReceiverOptions;
  readonly #puller: StatusPuller;
  readonly #effects: EffectRunner;
  readonly #worker: InboxWorker;
  readonly #now: () => Date;
  readonly #canPull: () => boolean;
  #drainTimer: NodeJS.Timeout | undefined;
  #draining: Promise<unknown> | undefined;
  #started = false;
  readonly #receiving = new Set<Promise<unknown>>();
  // Counts every `receive()` and effect drain started: a change means work happened.
  #activity = 0;
  readonly #retention: InboxRetention | undefined;
  readonly #context: ProcessContext;

  constructor(dependencies: ReceiverDependencies, options: CallbackReceiverOptions = {}) {
    super();
    this.#puller = dependencies.puller ?? new StatusPuller(dependencies.pull, defaultPullLimits);
    this.#options = { ...resolveOptions(options), pullWindowMs: this.#puller.windowMs };
    this.maxBodyBytes = this.#options.maxBodyBytes;
    this.#store = dependencies.store;
    this.#now = dependencies.now ?? (() => new Date());
    this.#canPull = dependencies.canPull ?? (() => true);
    const { onPaid, onFailed, onSent, onNotSent, onReview } = this.#options;
    this.#effects = new EffectRunner(
      this.#store,
      { onPaid, onFailed, onSent, onNotSent, onReview },
      {
        leaseMs: this.#options.leaseMs,
        retryDelaysMs: this.#options.retryDelaysMs,
        maxAttempts: this.#options.maxAttempts,
        now: this.#now,
      },
    );
    this.#effects.on('effect_failed', (event) =>
      this.emit('error', { stage: 'effect', error: asError(event.error) }),
    );
    const emit: ProcessContext['emit'] = (event, ...args) =>
      (this.emit.bind(this) as (name: string, ...rest: unknown[]) => boolean)(event, ...args);
    this.#context = {
      store: this.#store,
      puller: this.#puller,
      effects: this.#effects,
      options: this.#options,
      emit,
      now: this.#now,
      nudge: () => this.#worker.nudge(),
      ...(dependencies.account && { account: dependencies.account }),
      ...(this.#options.sourceBudget && {
        budget: new SourceBudget(this.#options.sourceBudget),
        backlog: {
          gauge: new BacklogGauge(this.#store.inbox),
          max: this.#options.sourceBudget.maxBacklog,
        },
      }),
      orphans: new ExpiringMap(),
      turns: new RecordTurns(this.#options.pullWindowMs),
    };
    this.#worker = new InboxWorker({
      inbox: this.#store.inbox,
      handle: (claim) => handleClaim(this.#context, claim),
      concurrency: this.#options.concurrency,
      leaseMs: this.#options.leaseMs,
      pollIntervalMs: this.#options.pollIntervalMs,
      onError: (error) => this.emit('error', { stage: 'process', error: asError(error) }),
    });
    const { inboxRetention } = this.#options;
    this.#retention =
      inboxRetention === false
        ? undefined
        : new InboxRetention({
            inbox: this.#store.inbox,
            now: this.#now,
            options: inboxRetention,
            onError: (error) => this.emit('error', { stage: 'prune', error: asError(error) }),
          });
  }

  /** Status calls actually sent (after coalescing and rate limiting). */
  get pulls(): number {
    return this.#puller.pulls;
  }

  toJSON(): CallbackReceiverDescription {
    return describeReceiver(this.#options, { started: this.#started, pulls: this.pulls });
  }

  /** Answers `POST|GET /callback`, `GET|HEAD|POST /return`; never throws; a store failure is 503. */
  async receive(request: ReceivedRequest, options: ReceiveOptions = {}): Promise<ReceiverResponse> {
    // A hand-written adapter may leave out headers; no method or url cannot be routed.
    if (
      typeof request !== 'object' ||
      request === null ||
      typeof request.method !== 'string' ||
      typeof request.url !== 'string'
    ) {
      return jsonResponse(400, {
        message:
          'receive() takes the request as { method, url, headers, body }: method and url are strings.',
      });
    }
    const complete =
      typeof request.headers === 'object' && request.headers !== null
        ? request
        : { ...request, headers: {} };
    this.#activity += 1;
    const answer = this.#route(complete, options);
    this.#receiving.add(answer);
    try {
      return await answer;
    } finally {
      this.#receiving.delete(answer);
    }
  }

  async #route(request: ReceivedRequest, options: ReceiveOptions): Promise<ReceiverResponse> {
    let url: URL;
    try {
      // The request target under the mount point, read as a browser would (`..`, escapes).
      url = new URL(request.url, 'http://receiver.invalid');
    } catch {
      return jsonResponse(404, { message: 'Not found.' });
    }
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = request.method.toUpperCase();
    if (path === '/callback') {
      if (method === 'POST') return receivePost(this.#context, request, url);
      if (method === 'GET') return receiveGet(this.#context, request, url);
      return jsonResponse(
        405,
        { message: `${method} is not allowed here; use POST or GET.` },
        { allow: 'GET, POST' },
      );
    }
    if (path === '/return') {
      // HEAD is GET without the body (RFC 9110 § 9.3.2): the body stays so Content-Length matches.
      if (method === 'GET' || method === 'HEAD')
        return answerCheckoutReturn(this.#context, url, options.returnUrls);
      // A checkout's one callback_url also gets the platform's settlement callback POST.
      if (method === 'POST') return receivePost(this.#context, request, url);
      return jsonResponse(
        405,
        { message: `${method} is not allowed here; use GET (browser) or POST (callback).` },
        { allow: 'GET, HEAD, POST' },
      );
    }
    return jsonResponse(404, {
      message: `Nothing at ${path}: the receiver answers POST/GET /callback and GET /return.`,
    });
  }

  /** Starts the inbox worker, effect drain and prune; without status credentials, ConfigurationError. */
  start(): this {
    if (this.#started) return this;
    if (!this.#canPull()) {
      throw new ConfigurationError('credentials.collection', noCollectionCredentials);
    }
    this.#started = true;
    this.#worker.start();
    this.#retention?.start();
    this.#drainTimer = setInterval(() => this.#drainEffects(), this.#options.effectDrainIntervalMs);
    this.#drainTimer.unref?.();
    this.#drainEffects();
    return this;
  }

  /** Stops claiming new work, waits for what is in progress, and stops. Safe to call twice. */
  async close(): Promise<void> {
    clearInterval(this.#drainTimer);
    this.#drainTimer = undefined;
    await this.#retention?.close();
    if (this.#started) await this.#worker.close();
    this.#started = false;
    await this.#draining;
    await this.#puller.onIdle();
  }

  /** Resolves when nothing is due here or in the store (later work does not count). */
  async onIdle(): Promise<void> {
    const pollMs = Math.min(this.#options.pollIntervalMs, 100);
    const activity = () => this.#activity + this.#worker.claimed;
    for (;;) {
      while (!this.#localIdle()) {
        await Promise.all([
          ...[...this.#receiving].map((answer) => answer.catch(() => {})),
          this.#draining,
          this.#worker.onIdle(),
          this.#puller.onIdle(),
        ]);
      }
      const before = activity();
      const busy = await this.#storeBusy();
      // Nothing in the store, and nothing started here while it was asked.
      if (!busy && this.#localIdle() && before === activity()) return;
      if (busy === 'inbox') this.#worker.nudge();
      if (busy === 'effects' && this.#started) this.#drainEffects();
      if (busy) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  #localIdle(): boolean {
    return (
      this.#receiving.size === 0 &&
      this.#draining === undefined &&
      this.#worker.idle &&
      this.#puller.idle
    );
  }

  async #storeBusy(): Promise<'inbox' | 'effects' | false> {
    // Effects this receiver has no handler for are another process's work.
    const { handles } = this.#effects;
    const running = await this.#store.effects.list('running', { limit: 1, handles });
    if (running.length > 0) return 'effects';
    const [due] = await this.#store.effects.list('due', { limit: 1, handles });
    if (due?.effect.dueAt && due.effect.dueAt <= this.#now()) return 'effects';
    const backlog = await this.#store.inbox.backlog();
    return backlog.due + backlog.processing > 0 ? 'inbox' : false;
  }

  #drainEffects(): void {
    if (this.#draining) return;
    this.#activity += 1;
    this.#draining = this.#effects
      .drain({ limit: 100 })
      .catch((error: unknown) => this.emit('error', { stage: 'effect', error: asError(error) }))
      .finally(() => {
        this.#draining = undefined;
      });
  }
}

// `util.inspect` (console.log) shows toJSON()'s description, not the listener table.
inspectAs(CallbackReceiver, 'CallbackReceiver');
