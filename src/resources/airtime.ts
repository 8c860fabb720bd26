import type { ResponseOf } from '../core/endpoints.js';
import type { WithLastResponse } from '../core/last-response.js';
import type { LoginRequest, RegisterRequest } from '../schemas/account.js';
import type {
  AirtimePurchaseRequest,
  RechargeCallback,
  RechargeRequest,
} from '../schemas/airtime.js';
import {
  type AirtimeBulkPurchase,
  type AirtimeBulkSource,
  startBulkPurchase,
} from './bulk/airtime-bulk.js';
import type { AirtimeBulkOptions } from './bulk/types.js';
import { type CallOptions, transportOptions } from './call-options.js';
import type { ClientContext } from './client-context.js';
import { logIn } from './log-in.js';
import { type MoneyMovementOptions, moveMoney, type WithMerchantReference } from './move-money.js';
import { reasonFromPlatform } from './stored-reason.js';

/** Airtime: sell airtime from a prepaid wallet, and top the wallet up (a recharge). */
export class Airtime {
  readonly #context: ClientContext;

  constructor(context: ClientContext) {
    this.#context = context;
  }

  /** Creates an airtime merchant account, `pending` until an administrator activates it. */
  register(
    request: RegisterRequest,
    options?: CallOptions,
  ): Promise<WithLastResponse<ResponseOf<'airtimeRegister'>>> {
    return this.#context.transport.request('airtimeRegister', {
      body: request,
      ...transportOptions(options),
    });
  }

  /** Logs in and keeps the token (calls also log in lazily). */
  login(credentials?: LoginRequest, options?: CallOptions): Promise<ResponseOf<'airtimeLogin'>> {
    return logIn(this.#context, 'airtime', credentials, options);
  }

  /** Forgets the token. The airtime API has no logout route, so nothing is sent. */
  async logout(): Promise<void> {
    await this.#context.transport.logout('airtime');
  }

  /** Sends airtime; the answer is final. Too little balance: `InsufficientFundsError`. */
  purchase(
    request: AirtimePurchaseRequest,
    options?: MoneyMovementOptions,
  ): Promise<WithMerchantReference<ResponseOf<'airtimePurchase'>>> {
    return moveMoney(
      this.#context,
      {
        endpoint: 'airtimePurchase',
        body: request,
        flow: 'airtime_purchase',
        intent: (body) => ({ amount: body.amount, msisdn: body.msisdn }),
        references: (r) => (r.payment ? { paymentReference: r.payment.reference } : {}),
        outcome: (r) =>
          r.status === 'success'
            ? { status: 'success' }
            : r.status === 'failed'
              ? { status: 'failed', reason: reasonFromPlatform(r.message) }
              : { status: 'pending' },
        echoes: (body, r) => ({
          amount: [body.amount, r.payment?.amount],
          msisdn: [body.msisdn, r.payment?.msisdn],
          status: [r.status, r.payment?.status === 'pending' ? undefined : r.payment?.status],
        }),
      },
      options,
    );
  }

  /**
   * Sends airtime to every row of a batch (rows, or an .xlsx/.csv path or bytes), each stored
   * under `airtime:<batchId>:<row>`, all checked first. Rerun the `batchId` after a crash: stored rows
   * are reported, never resent. Emits `row` and `progress`. See docs/bulk.md.
   */
  bulkPurchase(source: AirtimeBulkSource, options?: AirtimeBulkOptions): AirtimeBulkPurchase {
    return startBulkPurchase(
      this.#context,
      {
        purchase: (request, purchaseOptions) => this.purchase(request, purchaseOptions),
        user: () => this.user(),
      },
      source,
      options,
    );
  }

  /** Starts a wallet top-up, credited once the recharge callback confirms the `controlNumber`. */
  recharge(
    request: RechargeRequest,
    options?: MoneyMovementOptions,
  ): Promise<WithMerchantReference<ResponseOf<'airtimeRecharge'>>> {
    return moveMoney(
      this.#context,
      {
        endpoint: 'airtimeRecharge',
        body: request,
        flow: 'airtime_recharge',
        intent: (body) => ({ amount: body.amount, msisdn: body.msisdn }),
        references: (r) => ({ controlNumber: r.controlNumber }),
        outcome: () => ({ status: 'pending' }),
      },
      options,
    );
  }

  /** Confirms (`status: true`) or fails a recharge by `controlNumber`, as the payment side does. */
  async confirmRecharge(
    request: RechargeCallback,
    options?: CallOptions,
  ): Promise<WithLastResponse<ResponseOf<'airtimeRechargeCallback'>>> {
    const response = await this.#context.transport.request('airtimeRechargeCallback', {
      body: request,
      ...transportOptions(options),
    });
    const record = await this.#context.store.records.find({ value: request.controlNumber });
    const open = record?.status === 'pending' || record?.status === 'unknown';
    if (open && (response.status === 'success' || response.status === 'failed')) {
      await this.#context.ledger.move(record.merchantReference, {
        to: response.status,
        payload: response,
      });
    }
    return response;
  }

  /** The authenticated user with the wallet balance. */
  user(options?: CallOptions): Promise<WithLastResponse<ResponseOf<'airtimeUser'>>> {
    return this.#context.transport.request('airtimeUser', transportOptions(options));
  }
}
