import { effectKindOf } from '../references/effects.js';
import type { ReferenceStore, TransactionRecord, TransactionStatus } from '../references/index.js';
import type { Product } from '../schemas/product.js';

/**
 * Everything the verifier reads from a store, and the only place it touches the store's shape:
 * read methods only (records listed, found and got; the effect listing; the inbox listing).
 */
export interface StoreReader {
  /** Every record, each once. Throws when the store cannot list them all. */
  records(): Promise<TransactionRecord[]>;
  /** Records whose handler run was given up (`dead`), waiting for a person. */
  deadEffects(): Promise<TransactionRecord[]>;
  /** The inbox's deduplication keys of the callbacks that claim this payment reference. */
  inboxKeys(paymentReference: string): Promise<Set<string>>;
  /** True when the record's status makes a handler run due (a recharge's outcome runs none). */
  hasEffect(record: TransactionRecord): boolean;
  /** True when the record's handler run completed. */
  effectDone(record: TransactionRecord): boolean;
}

const products: readonly Product[] = ['collection', 'airtime', 'disbursement'];
const statuses: readonly TransactionStatus[] = [
  'initiating',
  'pending',
  'unknown',
  'needs_review',
  'success',
  'failed',
];
/** The largest listing a store hands out at once. */
const LISTING_LIMIT = 10_000;

export function storeReader(store: ReferenceStore): StoreReader {
  return {
    async records() {
      const all: TransactionRecord[] = [];
      // One listing per product and status keeps each within the store's largest page.
      for (const product of products) {
        for (const status of statuses) {
          const page = await store.listOpen({
            product,
            statuses: [status],
            limit: LISTING_LIMIT,
            oldestFirst: true,
          });
          if (page.length >= LISTING_LIMIT) {
            throw new Error(
              `The store holds ${LISTING_LIMIT} or more ${status} ${product} records, more than one listing returns; the verifier cannot see them all.`,
            );
          }
          all.push(...page);
        }
      }
      return all;
    },
    deadEffects: () => store.listEffects('dead', { limit: LISTING_LIMIT }),
    async inboxKeys(paymentReference) {
      const entries = await store.inbox.list({ paymentReference, limit: LISTING_LIMIT });
      return new Set(entries.map((entry) => entry.dedupKey));
    },
    hasEffect: (record) => effectKindOf(record) !== undefined,
    effectDone: (record) => record.effect.status === 'done',
  };
}
