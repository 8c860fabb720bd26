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

/** The platform calls the reconciler makes, each through the shared rate gate. */
export interface Platform {
  /** The collection status answer's `data`, by control number or engine reference. */
  collectionStatus(refId: string): Promise<CollectionTransaction>;
  /** One page of `getPayments`. */
  payouts(page: number, perPage: number): Promise<PayoutPage>;
  /** The airtime account with its wallet. */
  airtimeUser(): Promise<AirtimeUserResponse>;
  /** True when `product`'s calls can authenticate (credentials or a token). */
  canUse(product: Product): boolean;
}

export function transportPlatform(
  transport: Transport,
  gate: RateGate,
  credentials: Readonly<Partial<Record<Product, unknown>>>,
): Platform {
  return {
    async collectionStatus(refId) {
      const response = await gate.run(() =>
        transport.request('collectionStatus', { body: { ref_id: refId } }),
      );
      return response.data;
    },
    async payouts(page, perPage) {
      const { payments } = await gate.run(() =>
        transport.request('disbursementPayments', { body: { page, per_page: perPage } }),
      );
      return {
        data: payments.data,
        currentPage: payments.current_page,
        lastPage: payments.last_page,
      };
    },
    airtimeUser: () => gate.run(() => transport.request('airtimeUser', {})),
    // Credentials, or a token set with pesakit.setToken().
    canUse: (product) =>
      credentials[product] !== undefined || transport.token(product) !== undefined,
  };
}
