import type { CallbackReceiverOptions } from './callbacks/options.js';
import { CallbackReceiver } from './callbacks/receiver.js';
import type { Product } from './core/endpoints.js';
import { Transport, type TransportEvents, type TransportOptions } from './core/transport.js';
import type { ReconcilerOptions } from './reconciler/options.js';
import { Reconciler } from './reconciler/reconciler.js';
import { MemoryReferenceStore, type ReferenceStore } from './references/index.js';
import { Airtime } from './resources/airtime.js';
import type { ClientContext } from './resources/client-context.js';
import { Collection } from './resources/collection.js';
import { Disbursement } from './resources/disbursement.js';
import { newMerchantReference } from './resources/merchant-reference.js';

export interface PesakitOptions extends TransportOptions {
  /**
   * Where every transaction the client starts is remembered, under all its references.
   * Use `SqliteReferenceStore` (`pesakit/sqlite`) on one machine, `PostgresReferenceStore`
   * (`pesakit/postgres`) across many.
   * @default new MemoryReferenceStore() — lost when the process exits; for tests only.
   */
  store?: ReferenceStore;
  /**
   * Makes merchant references when a call does not pass one.
   * @default a sortable ULID
   */
  newMerchantReference?: () => string;
}

/**
 * The pesakit client: one typed method per endpoint of the three products.
 *
 * @example
 * const pesakit = new Pesakit({
 *   environment: 'sandbox',
 *   baseUrl: 'http://127.0.0.1:4010',
 *   credentials: { collection: { email, password } },
 * });
 * const payment = await pesakit.collection.initiateMno({ amount: 15000, msisdn: '255754123456' });
 */
export class Pesakit {
  readonly collection: Collection;
  readonly airtime: Airtime;
  readonly disbursement: Disbursement;
  readonly store: ReferenceStore;
  readonly #transport: Transport;
  readonly #credentials: PesakitOptions['credentials'];

  /**
   * @throws ConfigurationError when an option cannot work — an empty email or password, no
   * `baseUrl`, production without `baseUrls.<product>` for a product it has credentials for —
   * naming the option. Nothing is sent or stored by a client that fails here.
   */
  constructor(options: PesakitOptions) {
    const { store, newMerchantReference: makeReference, ...transportOptions } = options;
    this.#transport = new Transport(transportOptions);
    this.#credentials = options.credentials;
    this.store = store ?? new MemoryReferenceStore();
    const context: ClientContext = {
      transport: this.#transport,
      store: this.store,
      newMerchantReference: makeReference ?? (() => newMerchantReference()),
      credentials: options.credentials ?? {},
    };
    this.collection = new Collection(context);
    this.airtime = new Airtime(context);
    this.disbursement = new Disbursement(context);
  }

  /**
   * A receiver for the platform's collection callbacks and the checkout return, on this
   * client's store. Mount it with `pesakit/express` or `pesakit/fastify` (or call
   * `receiver.receive()`), then `receiver.start()`. See docs/callbacks.md.
   *
   * @example
   * const receiver = pesakit.createCallbackReceiver({
   *   onPaid: async (record, { effectKey }) => orders.markPaid(record.merchantReference, effectKey),
   * });
   * receiver.start();
   */
  createCallbackReceiver(options: CallbackReceiverOptions = {}): CallbackReceiver {
    return new CallbackReceiver(
      {
        store: this.store,
        pull: async (reference) =>
          (await this.#transport.request('collectionStatus', { body: { ref_id: reference } })).data,
        canPull: () =>
          this.#credentials?.collection !== undefined ||
          this.#transport.token('collection') !== undefined,
      },
      options,
    );
  }

  /**
   * The pull reconciler over this client's store and credentials: brings every pending,
   * unknown and stale initiating transaction to a final state or to `needs_review`
   * (docs/reconciler.md). Pass the same `onPaid` / `onFailed` / `onReview` handlers as the
   * callback receiver: whichever path settles a record first runs them.
   *
   * @example
   * const reconciler = pesakit.createReconciler({ concurrency: 8, onPaid: fulfil });
   * const summary = await reconciler.runOnce();   // or reconciler.start(); … await reconciler.close();
   */
  createReconciler(options?: ReconcilerOptions): Reconciler {
    return new Reconciler(
      { store: this.store, transport: this.#transport, credentials: this.#credentials ?? {} },
      options,
    );
  }

  /**
   * Uses `token` for `product`'s bearer calls from now on (`undefined` forgets it): a token
   * obtained elsewhere, or one kept across restarts. Without credentials for the product,
   * this is how its calls authenticate; with them, a rejected token is replaced by a login.
   *
   * @example pesakit.setToken('airtime', process.env.AIRTIME_TOKEN);
   */
  setToken(product: Product, token: string | undefined): this {
    this.#transport.setToken(product, token);
    return this;
  }

  /**
   * Listens to the transport: `request`, `response`, `retry`, `error`. Secrets are redacted
   * from every event.
   *
   * @example pesakit.on('retry', (e) => log.warn({ path: e.path, attempt: e.attempt }));
   */
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
