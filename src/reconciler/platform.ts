import type { Transport } from '../core/transport.js';
import type { AirtimeUserResponse } from '../schemas/airtime.js';
import type { CollectionTransaction } from '../schemas/collection.js';
import type { DisbursementHistoryRow } from '../schemas/disbursement.js';
import type { Product } from '../schemas/product.js';
import type { LeaseMargin } from './lease-margin.js';
import type { RateGate } from './rate-gate.js';

/** One page of the payout history, newest first. */
export interface PayoutPage {
  data: DisbursementHistoryRow[];
  currentPage: number;
  lastPage: number;
}

/** The reconciler's platform calls, through the rate gate; past `margin`, LeaseMarginSpent. */
export interface Platform {
  /** The collection status answer's `data`, by control number or engine reference. */
  collectionStatus(refId: string, margin?: LeaseMargin): Promise<CollectionTransaction>;
  payouts(page: number, perPage: number, margin?: LeaseMargin): Promise<PayoutPage>;
  airtimeUser(margin?: LeaseMargin): Promise<AirtimeUserResponse>;
  /** True when `product`'s calls can authenticate (credentials or a token). */
  canUse(product: Product): boolean;
}

export function transportPlatform(
  transport: Transport,
  gate: RateGate,
  credentials: Readonly<Partial<Record<Product, unknown>>>,
): Platform {
  const send = <T>(
    product: Product,
    margin: LeaseMargin | undefined,
    call: (options: { signal?: AbortSignal; retryRateLimited: false }) => Promise<T>,
  ) =>
    // The gate retries a 429 itself, with a token: the transport's retry would take none.
    gate.run(
      product,
      (signal) => call({ retryRateLimited: false, ...(signal ? { signal } : {}) }),
      margin,
    );
  return {
    collectionStatus: async (refId, margin) =>
      (
        await send('collection', margin, (o) =>
          transport.request('collectionStatus', { body: { ref_id: refId }, ...o }),
        )
      ).data,
    async payouts(page, perPage, margin) {
      const { payments } = await send('disbursement', margin, (o) =>
        transport.request('disbursementPayments', { body: { page, per_page: perPage }, ...o }),
      );
      return {
        data: payments.data,
        currentPage: payments.current_page,
        lastPage: payments.last_page,
      };
    },
    airtimeUser: (margin) => send('airtime', margin, (o) => transport.request('airtimeUser', o)),
    // Credentials, or a token set with pesakit.setToken().
    canUse: (product) =>
      credentials[product] !== undefined || transport.token(product) !== undefined,
  };
}
