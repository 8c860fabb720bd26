import { effectKindOf } from '../references/effects.js';
import type { ReferenceStore, TransactionRecord, TransactionStatus } from '../references/index.js';

/**
 * Everything the verifier reads from a store, and the only place it touches the store's shape:
 * read methods only (records listed, found and got; the effect listing; the inbox listing).
 */
export interface StoreReader {
  /** Every record, each once, read page by page. */
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
/** Records read per page: creation order, each page after the last record of the one before. */
const PAGE = 1_000;

export function storeReader(store: ReferenceStore): StoreReader {
  return {
    async records() {
      const all: TransactionRecord[] = [];
      let after: { createdAt: Date; merchantReference: string } | undefined;
      for (;;) {
        const page = await store.records.list({
          statuses,
          limit: PAGE,
          oldestFirst: true,
          ...(after === undefined ? {} : { after }),
        });
        all.push(...page);
        const last = page.at(-1);
        if (page.length < PAGE || last === undefined) return all;
        after = { createdAt: last.createdAt, merchantReference: last.merchantReference };
      }
    },
    deadEffects: () => store.effects.list('dead', { limit: LISTING_LIMIT }),
    async inboxKeys(paymentReference) {
      const entries = await store.inbox.list({ paymentReference, limit: LISTING_LIMIT });
      return new Set(entries.map((entry) => entry.dedupKey));
    },
    hasEffect: (record) => effectKindOf(record) !== undefined,
    effectDone: (record) => record.effect.status === 'done',
  };
}
