import type { CallbackReceiverOptions } from './callbacks/options.js';
import { CallbackReceiver } from './callbacks/receiver.js';
import { clientPuller, registerStatusPull } from './callbacks/status-puller.js';
import type { Product } from './core/endpoints.js';
import { Transport, type TransportEvents, type TransportOptions } from './core/transport.js';
import { Ledger } from './ledger/ledger.js';
import { traceOperations } from './observability/operations.js';
import type { ReconcilerOptions } from './reconciler/options.js';
import { Reconciler } from './reconciler/reconciler.js';
import { accountOf } from './references/account.js';
import { MemoryReferenceStore, type ReferenceStore } from './references/index.js';
import type { RecordAccount } from './references/types.js';
import { Airtime } from './resources/airtime.js';
import type { ClientContext } from './resources/client-context.js';
import { Collection } from './resources/collection.js';
import { Disbursement } from './resources/disbursement.js';
import { newMerchantReference } from './resources/merchant-reference.js';

export interface PesakitOptions extends TransportOptions {
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

// Every public call of a product is one `pesakit.operation` (docs/observability.md).
traceOperations(Collection.prototype, 'collection');
traceOperations(Airtime.prototype, 'airtime');
traceOperations(Disbursement.prototype, 'disbursement');

/** The pesakit client: one typed method per endpoint of the three products. */
export class Pesakit {
  readonly collection: Collection;
  readonly airtime: Airtime;
  readonly disbursement: Disbursement;
  readonly store: ReferenceStore;
  readonly #transport: Transport;
  readonly #credentials: PesakitOptions['credentials'];
  /** The account of each product, as records store it: theirs alone are pulled. */
  readonly #account: (product: Product) => RecordAccount;

  /**
   * @throws ConfigurationError when an option cannot work — an empty email or password, no
   * `baseUrl`, production without `baseUrls.<product>` for a product it has credentials for —
   * naming the option. Nothing is sent or stored by a client that fails here.
   */
  constructor(options: PesakitOptions) {
    const { store, newMerchantReference: makeReference, ...transportOptions } = options;
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
    this.collection = new Collection(context);
    this.airtime = new Airtime(context);
    this.disbursement = new Disbursement(context);
    // Its receivers and verifyCheckoutReturn share one status puller (window, rate limit).
    registerStatusPull(
      this,
      async (reference) =>
        (await this.#transport.request('collectionStatus', { body: { ref_id: reference } })).data,
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
        pull: (reference) => clientPuller(this).pull(reference),
        client: this,
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
