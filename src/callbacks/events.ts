import type { CallbackClaim } from '../references/inbox/types.js';
import type { TransactionRecord } from '../references/types.js';
import type { ReviewVerdict } from './foundation.js';

/** The receiver's events; none carries a credential (stored headers are redacted). */
export interface CallbackReceiverEvents {
  received: [{ entryId: string; claim: CallbackClaim }];
  duplicate: [{ entryId: string; claim: CallbackClaim; duplicates: number }];
  /** This receiver moved the record to `success` (verified by pull). */
  paid: [{ record: TransactionRecord; entryId?: string }];
  /** This receiver moved the record to `failed` (the platform said so). */
  failed: [{ record: TransactionRecord; entryId?: string }];
  /** Needs a person (`needs_review`) or attention (an unconfirmed success claim): see `record.status`. */
  review: [{ record: TransactionRecord | null; verdict: ReviewVerdict; entryId?: string }];
  /** A callback that matches no record; kept in the inbox with outcome `orphan`. */
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
