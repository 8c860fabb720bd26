import {
  type CheckoutReturnQuery,
  type CheckoutReturnResult,
  checkoutReturnOutcome,
} from './callbacks/checkout-return.js';
import type { CallbackReceiverOptions } from './callbacks/options.js';
import { CallbackReceiver } from './callbacks/receiver.js';
import {
  pullPriority,
  resolvePullLimits,
  StatusPuller,
  type StatusPullOptions,
} from './callbacks/status-puller.js';
import { Transport, type TransportEvents, type TransportOptions } from './core/transport.js';
import { ConfigurationError } from './errors/configuration-error.js';
import { Ledger } from './ledger/ledger.js';
import type { ReconcilerOptions } from './reconciler/options.js';
import { Reconciler } from './reconciler/reconciler.js';
import { accountOf } from './references/account.js';
import { MemoryReferenceStore, type ReferenceStore } from './references/index.js';
import { merchantKey } from './references/rate-limit/merchant-key.js';
import type { RecordAccount } from './references/record.js';
import { Airtime } from './resources/airtime.js';
import type { ClientContext } from './resources/client-context.js';
import { Collection } from './resources/collection.js';
import { Disbursement } from './resources/disbursement.js';
import { newMerchantReference } from './resources/merchant-reference.js';
import { traceOperations } from './resources/operation-tracing.js';
import type { Product } from './schemas/product.js';

export interface PesakitOptions extends TransportOptions, StatusPullOptions {
  /**
   * Where every transaction is remembered: `SqliteReferenceStore` on one machine,
   * `PostgresReferenceStore` across many.
   * @default new MemoryReferenceStore() — lost when the process exits; for tests only.
   */
  store?: ReferenceStore;
  /**
   * Makes merchant references when a call does not pass one.
   * @default a sortable ULID
   */
  newMerchantReference?: () => string;
}

/** A client's status puller, for `verifyCheckoutReturn`; undefined for anything else. */
let statusPullerOf: (client: Pesakit) => StatusPuller | undefined;

/** The pesakit client: one typed method per endpoint of the three products. */
export class Pesakit {
  static {
    statusPullerOf = (client) => (#puller in client ? client.#puller : undefined);
  }

  readonly collection: Collection;
  readonly airtime: Airtime;
  readonly disbursement: Disbursement;
  readonly store: ReferenceStore;
  readonly #transport: Transport;
  readonly #credentials: PesakitOptions['credentials'];
  /** Its receivers and `verifyCheckoutReturn` share it: one window, one rate limit. */
  readonly #puller: StatusPuller;
  /** The account of each product, as records store it: theirs alone are pulled. */
  readonly #account: (product: Product) => RecordAccount;

  /**
   * @throws ConfigurationError when an option cannot work — an empty email or password, no
   * `baseUrl`, production without `baseUrls.<product>` for a product it has credentials for —
   * naming the option. Nothing is sent or stored by a client that fails here.
   */
  constructor(options: PesakitOptions) {
    const {
      store,
      newMerchantReference: makeReference,
      pullsPerSecond,
      pullConcurrency,
      pullWindowMs,
      ...transportOptions
    } = options;
    this.#transport = new Transport(transportOptions);
    this.#credentials = options.credentials;
    const environment = options.environment ?? 'sandbox';
    this.#account = (product) => accountOf(environment, options.credentials?.[product]);
    this.store = store ?? new MemoryReferenceStore();
    const context: ClientContext = {
      transport: this.#transport,
      store: this.store,
      ledger: new Ledger(this.store),
      newMerchantReference: makeReference ?? (() => newMerchantReference()),
      credentials: options.credentials ?? {},
      account: this.#account,
    };
    // Every public call of a product is one `pesakit.operation` (docs/observability.md).
    this.collection = traceOperations(new Collection(context), 'collection');
    this.airtime = traceOperations(new Airtime(context), 'airtime');
    this.disbursement = traceOperations(new Disbursement(context), 'disbursement');
    this.#puller = new StatusPuller(
      (reference) => this.#pullStatus(reference),
      resolvePullLimits({
        ...(pullsPerSecond !== undefined && { pullsPerSecond }),
        ...(pullConcurrency !== undefined && { pullConcurrency }),
        ...(pullWindowMs !== undefined && { pullWindowMs }),
      }),
      // The merchant account's rate limit, shared with its reconcilers, in the store.
      { rateLimit: this.store.rateLimit, key: merchantKey(this.#account('collection')) },
    );
  }

  /**
   * A receiver for collection callbacks and the checkout return, on this client's store.
   * Mount it with `pesakit/express` or `pesakit/fastify`, then `receiver.start()`.
   */
  createCallbackReceiver(options: CallbackReceiverOptions = {}): CallbackReceiver {
    return new CallbackReceiver(
      {
        store: this.store,
        pull: (reference) => this.#pullStatus(reference),
        puller: this.#puller,
        account: this.#account,
        canPull: () =>
          this.#credentials?.collection !== undefined ||
          this.#transport.token('collection') !== undefined,
      },
      options,
    );
  }

  /**
   * The pull reconciler: brings pending, unknown and stale initiating transactions to a final
   * state or `needs_review`. Whichever of it and the receiver settles a record first runs the handlers.
   */
  createReconciler(options?: ReconcilerOptions): Reconciler {
    return new Reconciler(
      {
        store: this.store,
        transport: this.#transport,
        credentials: this.#credentials ?? {},
        account: this.#account,
      },
      options,
    );
  }

  async #pullStatus(reference: string) {
    return (await this.#transport.request('collectionStatus', { body: { ref_id: reference } }))
      .data;
  }

  /**
   * Uses `token` for `product`'s bearer calls (`undefined` forgets it). With credentials for
   * the product, a rejected token is replaced by a login.
   */
  setToken(product: Product, token: string | undefined): this {
    this.#transport.setToken(product, token);
    return this;
  }

  /** Listens to `request`, `response`, `retry`, `error` and `warning`. Secrets are redacted. */
  on<E extends keyof TransportEvents>(
    event: E,
    listener: (...args: TransportEvents[E]) => void,
  ): this {
    this.#transport.events.on(event, listener as never);
    return this;
  }

  /** Stops listening. */
  off<E extends keyof TransportEvents>(
    event: E,
    listener: (...args: TransportEvents[E]) => void,
  ): this {
    this.#transport.events.off(event, listener as never);
    return this;
  }
}

/**
 * Verifies a checkout return without a framework (spec rule 10): pulls the status through the
 * client's puller (shared with its receivers), never trusts the query; handlers stay due.
 */
export async function verifyCheckoutReturn(
  pesakit: Pesakit,
  query: CheckoutReturnQuery,
): Promise<CheckoutReturnResult> {
  const puller =
    typeof pesakit === 'object' && pesakit !== null ? statusPullerOf(pesakit) : undefined;
  if (puller === undefined) {
    throw new ConfigurationError('pesakit', 'Pass the Pesakit client (`new Pesakit(...)`) itself.');
  }
  return checkoutReturnOutcome(
    pesakit.store,
    (reference) => puller.pull(reference, pullPriority.browser),
    query,
  );
}
