import { z } from 'zod';
import type { ResponseOf } from '../core/endpoints.js';
import { type WithLastResponse, withLastResponse } from '../core/last-response.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { TransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import { resolveOptions } from '../reconciler/options.js';
import { PayoutHistory } from '../reconciler/payout-history.js';
import { checkDisbursement } from '../reconciler/strategies/disbursement.js';
import { nameEcho } from '../reconciler/strategies/payout-rows.js';
import { notVisibleWarning } from '../references/account.js';
import type { TransactionRecord } from '../references/index.js';
import type { WalletReservation } from '../references/wallet-float.js';
import type { LoginRequest, RegisterRequest } from '../schemas/account.js';
import type { DisbursementHistoryRow, DisbursementRequest } from '../schemas/disbursement.js';
import { fieldErrorsFrom } from '../schemas/error-body.js';
import type { PageRequest } from '../schemas/pagination.js';
import { payableMsisdnSchema } from '../schemas/provider.js';
import {
  type DisbursementBulkPay,
  type DisbursementBulkSource,
  startBulkPay,
} from './bulk/payout-bulk.js';
import type { DisbursementBulkOptions } from './bulk/types.js';
import { type CallOptions, transportOptions } from './call-options.js';
import type { ClientContext } from './client-context.js';
import { logIn } from './log-in.js';
import { type MoneyMovementOptions, moveMoney, type WithMerchantReference } from './move-money.js';
import { PagePromise } from './pagination.js';
import { RecordNotVisibleError } from './record-not-visible-error.js';
import { reasonFromPlatform } from './stored-reason.js';

const payoutMsisdnSchema = z.object({ msisdn: payableMsisdnSchema });

const awaitingHistory =
  'accepted by the platform; the payout history confirms its amount, MSISDN and name';

/** Disbursement: payouts from the wallet (amount plus charge), reconciled by `payments()`. */
export class Disbursement {
  readonly #context: ClientContext;

  constructor(context: ClientContext) {
    this.#context = context;
  }

  /** Creates a disbursement account. It starts `unverified` and cannot log in until verified. */
  register(
    request: RegisterRequest,
    options?: CallOptions,
  ): Promise<WithLastResponse<ResponseOf<'disbursementRegister'>>> {
    return this.#context.transport.request('disbursementRegister', {
      body: request,
      ...transportOptions(options),
    });
  }

  /** Logs in and keeps the token (calls also log in lazily). */
  login(
    credentials?: LoginRequest,
    options?: CallOptions,
  ): Promise<ResponseOf<'disbursementLogin'>> {
    return logIn(this.#context, 'disbursement', credentials, options);
  }

  /** Revokes the token on the platform and forgets it. The next call logs in again. */
  async logout(): Promise<void> {
    await this.#context.transport.logout('disbursement');
  }

  /**
   * Sends a payout to a `255` + nine-digit MSISDN of a supported provider (checked first). Too
   * little balance is an `InsufficientFundsError`; an upstream refusal a `BadRequestError`.
   */
  pay(
    request: DisbursementRequest,
    options?: MoneyMovementOptions,
  ): Promise<WithMerchantReference<ResponseOf<'disbursementPay'>>>;
  // Not in the public signature: a bulk row (`bulkPay`) holds its share of the float.
  pay(
    request: DisbursementRequest,
    options?: MoneyMovementOptions,
    reservation?: WalletReservation,
  ): Promise<WithMerchantReference<ResponseOf<'disbursementPay'>>> {
    // The wire schema takes any string: the SDK refuses a bad number before storing anything.
    const checked = payoutMsisdnSchema.safeParse({ msisdn: request?.msisdn });
    if (!checked.success) {
      const errors = fieldErrorsFrom(checked.error, { msisdn: request?.msisdn });
      return Promise.reject(new RequestValidationError('disbursementPay', errors));
    }
    return moveMoney(
      this.#context,
      {
        endpoint: 'disbursementPay',
        body: request,
        flow: 'disbursement',
        // The recipient's name is what the payout history shows besides amount and MSISDN.
        intent: (body) => ({
          amount: body.amount,
          msisdn: body.msisdn,
          ...(body.name.length <= 500 && { metadata: { name: body.name } }),
        }),
        references: (r) => ({
          refid: r.response.reference,
          ...(r.payment ? { txnid: r.payment.txnid } : {}),
        }),
        outcome: (r) => {
          if (!r.response.status || r.payment?.status === 'pending') {
            return { status: 'pending', reason: reasonFromPlatform(r.response.message) };
          }
          // The spec's answer carries nothing to compare with the request: a final `success`
          // waits for the payout history to show this amount, MSISDN and name.
          if (!r.payment) return { status: 'pending', reason: awaitingHistory };
          return { status: 'success' };
        },
        // The spec's answer has only `response`; `payment`, when given, must agree with both.
        echoes: (body, r) => ({
          amount: [body.amount, r.payment?.amount],
          msisdn: [body.msisdn, r.payment?.msisdn],
          name: nameEcho(body.name, r.payment?.name),
          refid: [r.response.reference, r.payment?.refid],
          status: [
            r.response.status ? 'completed' : 'failed',
            r.payment?.status === 'pending' ? undefined : r.payment?.status,
          ],
        }),
        reservation,
      },
      options,
    );
  }

  /**
   * Pays every row of a batch (rows, or an .xlsx/.csv path or bytes: msisdn, amount, name,
   * reference?), each one `pay` under `payout:<batchId>:<row>`, all checked first, the wallet's
   * float reserved per row. Rerun the `batchId` to resume: no row is paid twice. See docs/bulk.md.
   */
  bulkPay(source: DisbursementBulkSource, options?: DisbursementBulkOptions): DisbursementBulkPay {
    return startBulkPay(this.#context, this, source, options);
  }

  /** The user's payouts, newest first: await it for one page, `for await` it for all. */
  payments(request: PageRequest = {}, options?: CallOptions): PagePromise<DisbursementHistoryRow> {
    // A JavaScript caller's `null` is refused when awaited, like any other bad request.
    if (typeof request !== 'object' || request === null) {
      const refused = new RequestValidationError('disbursementPayments', {
        request: ['The request must be an object { page?, per_page? }, or left out.'],
      });
      return new PagePromise(async () => {
        throw refused;
      });
    }
    return new PagePromise(async (page) => {
      const { payments, lastResponse } = await this.#context.transport.request(
        'disbursementPayments',
        { body: { ...request, page }, ...transportOptions(options) },
      );
      const raw = {
        data: payments.data,
        currentPage: payments.current_page,
        lastPage: payments.last_page,
        perPage: payments.per_page,
        total: payments.total,
      };
      return withLastResponse(raw, lastResponse);
    }, request.page ?? 1);
  }

  /**
   * One payout's stored record; while `pending` or `unknown`, first refreshed from the payout
   * history (the platform has no status route per payout) by the reconciler's own rules.
   * @throws RecordNotVisibleError when the payout was made with another account or in another
   * environment: that account's history is not this one's, so nothing is pulled or changed.
   */
  async status(merchantReference: string, options?: CallOptions): Promise<TransactionRecord> {
    const { store, ledger, account } = this.#context;
    const record = await store.records.get(merchantReference);
    if (record?.product !== 'disbursement') {
      throw new TransactionNotFoundError(
        merchantReference,
        'disbursement.status() knows the payouts sent through this store (disbursement.pay).',
      );
    }
    if (record.status !== 'pending' && record.status !== 'unknown') return record;
    const warning = notVisibleWarning(record, account('disbursement'));
    if (warning) throw new RecordNotVisibleError(warning);
    const payouts = (page: number, per_page: number) => this.payments({ page, per_page }, options);
    const history = new PayoutHistory({ payouts }, () => new Date());
    const margin = { until: Number.POSITIVE_INFINITY };
    const check = { store, ledger, record, margin, pass: { payouts: history } };
    await checkDisbursement({ ...check, options: resolveOptions({}) });
    return (await store.records.get(merchantReference)) ?? record;
  }

  /** The authenticated user and the wallet balance. */
  user(options?: CallOptions): Promise<WithLastResponse<ResponseOf<'disbursementUser'>>> {
    return this.#context.transport.request('disbursementUser', transportOptions(options));
  }
}
