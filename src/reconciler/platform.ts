import type { Product } from '../core/endpoints.js';
import type { Transport } from '../core/transport.js';
import type { AirtimeUserResponse } from '../schemas/airtime.js';
import type { CollectionTransaction } from '../schemas/collection.js';
import type { DisbursementPayment } from '../schemas/disbursement.js';
import type { RateGate } from './rate-gate.js';

/** One page of the payout history, newest first. */
export interface PayoutPage {
  data: DisbursementPayment[];
  currentPage: number;
  lastPage: number;
}

/**
 * The instant (reconciler clock, ms) after which the request must not be sent: the lease margin
 * of the check it is for (or the latest of the checks sharing it). Past it the call rejects
 * with LeaseMarginSpent and sends nothing (rate-gate.ts).
 */
export type UsableUntil = () => number;

/** The platform calls the reconciler makes, each through the shared rate gate. */
export interface Platform {
  /** The collection status answer's `data`, by control number or engine reference. */
  collectionStatus(refId: string, usableUntil?: UsableUntil): Promise<CollectionTransaction>;
  /** One page of `getPayments`. */
  payouts(page: number, perPage: number, usableUntil?: UsableUntil): Promise<PayoutPage>;
  /** The airtime account with its wallet. */
  airtimeUser(usableUntil?: UsableUntil): Promise<AirtimeUserResponse>;
  /** True when `product`'s calls can authenticate (credentials or a token). */
  canUse(product: Product): boolean;
}

export function transportPlatform(
  transport: Transport,
  gate: RateGate,
  credentials: Readonly<Partial<Record<Product, unknown>>>,
): Platform {
  return {
    async collectionStatus(refId, usableUntil) {
      const response = await gate.run(
        (signal) =>
          transport.request('collectionStatus', {
            body: { ref_id: refId },
            ...(signal ? { signal } : {}),
          }),
        usableUntil,
      );
      return response.data;
    },
    async payouts(page, perPage, usableUntil) {
      const { payments } = await gate.run(
        (signal) =>
          transport.request('disbursementPayments', {
            body: { page, per_page: perPage },
            ...(signal ? { signal } : {}),
          }),
        usableUntil,
      );
      return {
        data: payments.data,
        currentPage: payments.current_page,
        lastPage: payments.last_page,
      };
    },
    airtimeUser: (usableUntil) =>
      gate.run((signal) => transport.request('airtimeUser', signal ? { signal } : {}), usableUntil),
    // Credentials, or a token set with pesakit.setToken().
    canUse: (product) =>
      credentials[product] !== undefined || transport.token(product) !== undefined,
  };
}
