import type { ResponseOf } from '../core/endpoints.js';
import { type WithLastResponse, withLastResponse } from '../core/last-response.js';
import { settleCollection } from '../ledger/settle-collection.js';
import { notVisibleWarning } from '../references/account.js';
import type { TransactionRecord } from '../references/index.js';
import type { LoginRequest } from '../schemas/account.js';
import type {
  BankCollectionRequest,
  CheckoutMnoRequest,
  MnoCollectionRequest,
  PayMobileRequest,
  PortalSessionRequest,
  SecureCheckoutRequest,
  TestProvider,
} from '../schemas/collection.js';
import { type CallOptions, transportOptions } from './call-options.js';
import type { ClientContext } from './client-context.js';
import { logIn } from './log-in.js';
import { type MoneyMovementOptions, moveMoney, type WithMerchantReference } from './move-money.js';
import { RecordNotVisibleError } from './record-not-visible-error.js';

const pending = () => ({ status: 'pending' as const });

/**
 * Collection: take money from a customer by mobile push, at a bank, through the hosted checkout,
 * or pay_mobile. Each initiation is stored before it is sent.
 */
export class Collection {
  readonly #context: ClientContext;

  constructor(context: ClientContext) {
    this.#context = context;
  }

  /** Logs in and keeps the token (calls also log in lazily). */
  login(credentials?: LoginRequest, options?: CallOptions): Promise<ResponseOf<'collectionLogin'>> {
    return logIn(this.#context, 'collection', credentials, options);
  }

  /** Revokes the token on the platform and forgets it. The next call logs in again. */
  async logout(): Promise<void> {
    await this.#context.transport.logout('collection');
  }

  /** Asks the customer's phone to approve a payment (USSD push). */
  initiateMno(
    request: MnoCollectionRequest,
    options?: MoneyMovementOptions,
  ): Promise<WithMerchantReference<ResponseOf<'initiateMno'>>> {
    return moveMoney(
      this.#context,
      {
        endpoint: 'initiateMno',
        body: request,
        tagsCallbackUrl: true,
        flow: 'mno',
        intent: (body) => ({ amount: body.amount, msisdn: body.msisdn }),
        references: (r) => ({ controlNumber: r.controlNumber, paymentReference: r.reference }),
        outcome: pending,
        echoes: (body, r) => ({ amount: [body.amount, r.amount] }),
      },
      options,
    ).then(this.#noCallbackWarning(request));
  }

  /** Creates a bank collection: the customer pays at the bank against the `controlNumber`. */
  initiateBank(
    request: BankCollectionRequest,
    options?: MoneyMovementOptions,
  ): Promise<WithMerchantReference<ResponseOf<'initiateBank'>>> {
    return moveMoney(
      this.#context,
      {
        endpoint: 'initiateBank',
        body: request,
        tagsCallbackUrl: true,
        flow: 'bank',
        intent: (body) => ({ amount: body.amount }),
        references: (r) => ({ controlNumber: r.controlNumber, paymentReference: r.reference }),
        outcome: pending,
        echoes: (body, r) => ({ amount: [body.amount, r.amount] }),
      },
      options,
    ).then(this.#noCallbackWarning(request));
  }

  /** Creates a hosted checkout: send the customer to `payment_url`, then `verifyCheckoutReturn`. */
  createCheckout(
    request: SecureCheckoutRequest,
    options?: MoneyMovementOptions,
  ): Promise<WithMerchantReference<ResponseOf<'initiateSecure'>>> {
    return moveMoney(
      this.#context,
      {
        endpoint: 'initiateSecure',
        body: request,
        tagsCallbackUrl: true,
        flow: 'secure',
        intent: (body) => ({ amount: body.amount }),
        references: (r) => ({
          externalReference: r.external_reference,
          controlNumber: r.controlNumber,
          paymentReference: r.reference,
        }),
        outcome: pending,
        echoes: (body, r) => ({ amount: [body.amount, r.amount] }),
      },
      options,
    );
  }

  /** Engine-compatible pay_mobile; a configured `apiKey` is sent as `x-api-key`. */
  payMobile(
    request: PayMobileRequest,
    options?: MoneyMovementOptions,
  ): Promise<WithMerchantReference<ResponseOf<'payMobile'>>> {
    return moveMoney(
      this.#context,
      {
        endpoint: 'payMobile',
        body: request,
        tagsCallbackUrl: true,
        flow: 'pay_mobile',
        intent: (body) => ({ amount: body.amount, msisdn: body.msisdn }),
        references: (r) => ({ controlNumber: r.controlNumber, paymentReference: r.reference }),
        outcome: pending,
        echoes: (body, r) => ({ amount: [body.amount, r.amount] }),
      },
      options,
    ).then(this.#noCallbackWarning(request));
  }

  /** Without `callback_url` no callback comes: a `warning` event says only a pull will tell. */
  #noCallbackWarning(request: { callback_url?: string | undefined } | undefined) {
    return <R extends { merchantReference: string }>(result: R): R => {
      const { merchantReference } = result;
      const message = `Collection ${merchantReference} was started without callback_url: only the reconciler (a status pull) will find its outcome.`;
      if (request?.callback_url === undefined) {
        this.#context.transport.warn({ code: 'no_callback_url', merchantReference, message });
      }
      return result;
    };
  }

  /** Hosted checkout, phone option, for your own checkout UI. */
  async checkoutMno(
    request: CheckoutMnoRequest,
    options?: CallOptions,
  ): Promise<WithLastResponse<ResponseOf<'checkoutMno'>>> {
    const response = await this.#context.transport.request('checkoutMno', {
      body: request,
      ...transportOptions(options),
    });
    await this.#attachToCheckout(response.external_reference, {
      controlNumber: response.controlNumber,
      paymentReference: response.reference,
    });
    return response;
  }

  /** Hosted checkout, card option: opens a card session with the payment token. */
  portalSession(
    request: PortalSessionRequest,
    options?: CallOptions,
  ): Promise<WithLastResponse<ResponseOf<'portalSession'>>> {
    return this.#context.transport.request('portalSession', {
      body: request,
      ...transportOptions(options),
    });
  }

  /**
   * Pulls a transaction's state by control number or engine reference, and applies it to a
   * stored record (`success` only when references and amount match, else `needs_review`).
   * @throws RecordNotVisibleError when the stored record was made with another account or in
   * another environment: nothing is pulled (the platform would answer 404) or changed.
   */
  async status(
    refId: string,
    options?: CallOptions,
  ): Promise<WithLastResponse<ResponseOf<'collectionStatus'>> & { record?: TransactionRecord }> {
    const { store, account } = this.#context;
    const stored = await store.records.find({ value: refId });
    const warning = stored && notVisibleWarning(stored, account(stored.product));
    if (warning) throw new RecordNotVisibleError(warning);
    const response = await this.#context.transport.request('collectionStatus', {
      body: { ref_id: refId },
      ...transportOptions(options),
    });
    const record = await this.#apply(response.data);
    return record ? withLastResponse({ ...response, record }, response.lastResponse) : response;
  }

  /** A sample signed token and its hash for integration tests of a payment provider. */
  testProvider(
    provider: TestProvider,
    options?: CallOptions,
  ): Promise<WithLastResponse<ResponseOf<'providerTest'>>> {
    return this.#context.transport.request('providerTest', {
      params: { provider },
      ...transportOptions(options),
    });
  }

  async #attachToCheckout(
    externalReference: string,
    references: { controlNumber: string; paymentReference: string },
  ) {
    const record = await this.#context.store.records.find({ value: externalReference });
    if (record) await this.#context.ledger.move(record.merchantReference, { references });
  }

  async #apply(
    transaction: ResponseOf<'collectionStatus'>['data'],
  ): Promise<TransactionRecord | undefined> {
    const { store, ledger } = this.#context;
    const found =
      (await store.records.find({ value: transaction.controlNumber })) ??
      (await store.records.find({ value: transaction.reference }));
    if (!found) return undefined;
    return (await settleCollection(ledger, found, transaction)).record;
  }
}
