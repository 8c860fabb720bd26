import type { NotVisibleWarning } from '../references/account.js';
import type { CallbackClaim } from '../references/inbox/types.js';
import type { TransactionRecord } from '../references/record.js';
import type { ReviewVerdict } from '../references/review.js';

/** The receiver's events; none carries a credential (stored headers are redacted). */
export interface CallbackReceiverEvents {
  received: [{ entryId: string; claim: CallbackClaim }];
  duplicate: [{ entryId: string; claim: CallbackClaim; duplicates: number }];
  /** This receiver moved the record to `success` (verified by pull). */
  paid: [{ record: TransactionRecord; entryId?: string }];
  /** This receiver moved the record to `failed` (the platform said so). */
  failed: [{ record: TransactionRecord; entryId?: string }];
  /** Needs a person: the record is in `needs_review`, or (null) an orphan callback. */
  review: [{ record: TransactionRecord | null; verdict: ReviewVerdict; entryId?: string }];
  /** A success claim the platform did not confirm within `claimWindowMs`; the record stays pending. */
  unconfirmed: [
    { record: TransactionRecord; claim: CallbackClaim; entryId: string; message: string },
  ];
  /**
   * A callback named a record of another account or environment: not pulled, the record left
   * open and untouched; the entry is kept with outcome `not_visible`.
   */
  warning: [NotVisibleWarning & { record: TransactionRecord; entryId: string }];
  /** A callback that matches no record (once an hour per reference); kept with outcome `orphan`. */
  orphan: [{ entryId: string; claim: CallbackClaim; verdict: ReviewVerdict }];
  /** A failure while storing, processing, running an effect, answering a return, or pruning. */
  error: [
    {
      stage: 'receive' | 'process' | 'effect' | 'return' | 'prune';
      error: Error;
      entryId?: string;
    },
  ];
}
