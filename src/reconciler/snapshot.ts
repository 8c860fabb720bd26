import type { ReconcilerOptions, ResolvedOptions } from './options.js';

/** What a reconciler shows a logger: state and options, never the client; shaped like the receiver's. */
export interface ReconcilerSnapshot {
  kind: 'reconciler';
  /** `start()` was called and `close()` not yet. */
  running: boolean;
  /** `close()` was called: no pass will start again. */
  closed: boolean;
  /** A pass (`runOnce()`, or one of `start()`'s) is under way. */
  passInProgress: boolean;
  /** The options in force, defaults filled in: durations, limits, schedules — no secrets. */
  options: ResolvedOptions;
  /** Which of the merchant's handlers were given (not the functions themselves). */
  handlers: { onPaid: boolean; onFailed: boolean; onReview: boolean };
}

export function reconcilerSnapshot(state: {
  running: boolean;
  closed: boolean;
  passInProgress: boolean;
  options: ResolvedOptions;
  given: Pick<ReconcilerOptions, 'onPaid' | 'onFailed' | 'onReview'>;
}): ReconcilerSnapshot {
  const { options } = state;
  return {
    kind: 'reconciler',
    running: state.running,
    closed: state.closed,
    passInProgress: state.passInProgress,
    // A copy: a logger that changes what it was given must not change the reconciler.
    options: {
      ...options,
      schedules: {
        pending: [...options.schedules.pending],
        unknown: [...options.schedules.unknown],
      },
    },
    handlers: {
      onPaid: typeof state.given.onPaid === 'function',
      onFailed: typeof state.given.onFailed === 'function',
      onReview: typeof state.given.onReview === 'function',
    },
  };
}
