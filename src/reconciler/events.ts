import type { NotVisibleWarning } from '../references/account.js';
import type { EffectKind } from '../references/effects.js';
import type { TransactionRecord } from '../references/index.js';
import type { ReviewVerdict } from '../references/review.js';

/** Counts of one pass (`runOnce`), by outcome. */
export interface ReconcileSummary {
  /** Records checked this pass (the platform asked, or the record decided). */
  checked: number;
  settled: number;
  failed: number;
  review: number;
  /** Checked, still open (next check scheduled). */
  pending: number;
  /** Checks that threw (network, 5xx, missing credentials): retried on the schedule. */
  errors: number;
  /** Records handed back unchecked, their lease (nearly) run out first. Not in `checked`. */
  leaseExpired: number;
  /**
   * Records of another account or environment (`warning` names both): not pulled, left open and
   * untouched, due again later. Not in `checked`.
   */
  notVisible: number;
  /** Due effects of the kinds this reconciler has no handler for, by kind (another process may). */
  unhandledEffects: Partial<Record<EffectKind, number>>;
  durationMs: number;
}

/** The running counts, emitted as `progress` after every check. */
export type ReconcileProgress = Omit<ReconcileSummary, 'durationMs' | 'unhandledEffects'>;

/** The reconciler's events (eventemitter3). */
export interface ReconcilerEvents {
  /** This reconciler moved the record to `success`. */
  settled: [record: TransactionRecord];
  /** This reconciler moved the record to `failed`. */
  failed: [record: TransactionRecord];
  /** This reconciler handed the record to a person. */
  review: [record: TransactionRecord, verdict: ReviewVerdict];
  /** A record of another account or environment was not pulled (`not_visible`), once a pass. */
  warning: [warning: NotVisibleWarning, record: TransactionRecord];
  progress: [progress: ReconcileProgress];
  /** A check or a handler threw; the record (when there is one) is retried on its schedule. */
  error: [error: unknown, record?: TransactionRecord];
  /** The platform answered 429: every request waits this long. */
  paused: [info: { ms: number }];
}

export function emptyProgress(): ReconcileProgress {
  return {
    checked: 0,
    settled: 0,
    failed: 0,
    review: 0,
    pending: 0,
    errors: 0,
    leaseExpired: 0,
    notVisible: 0,
  };
}
