import type { CallbackClaim } from '../references/inbox/types.js';
import type { TransactionRecord } from '../references/types.js';
import type { ReviewVerdict } from './foundation.js';

/**
 * The receiver's events (eventemitter3). None carries a credential: stored headers are
 * redacted, and errors are the SDK's own (whose messages never include secrets).
 */
export interface CallbackReceiverEvents {
  /** A new callback was stored in the inbox (before the 200). */
  received: [{ entryId: string; claim: CallbackClaim }];
  /** The same callback again: counted, not stored or processed again. */
  duplicate: [{ entryId: string; claim: CallbackClaim; duplicates: number }];
  /** This receiver moved the record to `success` (verified by pull). */
  paid: [{ record: TransactionRecord; entryId?: string }];
  /** This receiver moved the record to `failed` (the platform said so). */
  failed: [{ record: TransactionRecord; entryId?: string }];
  /**
   * Something needs a person, or at least attention: a mismatch (record now `needs_review`), or
   * a success claim the platform does not confirm (yet) — `record.status` tells which.
   */
  review: [{ record: TransactionRecord | null; verdict: ReviewVerdict; entryId?: string }];
  /** A callback that matches no record; kept in the inbox with outcome `orphan`. */
  orphan: [{ entryId: string; claim: CallbackClaim; verdict: ReviewVerdict }];
  /**
   * Something failed: storing (`receive`), processing (`process`), an effect, a return, or the
   * scheduled deletion of old inbox entries (`prune`: tried again at the next run).
   */
  error: [
    {
      stage: 'receive' | 'process' | 'effect' | 'return' | 'prune';
      error: Error;
      entryId?: string;
    },
  ];
}
