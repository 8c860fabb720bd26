import { type EffectKind, effectKindNames, effectKinds } from '../references/effects.js';
import type { SettlementHandlers } from '../settlement/effects.js';
import type { ResolvedOptions } from './options.js';

/** What a reconciler shows a logger: state and options, never the client; shaped like the receiver's. */
export interface ReconcilerSnapshot {
  kind: 'reconciler';
  running: boolean;
  closed: boolean;
  passInProgress: boolean;
  /** The options in force, defaults filled in: no secrets. */
  options: ResolvedOptions;
  /** Which of the merchant's handlers were given. */
  handlers: Record<keyof SettlementHandlers, boolean>;
}

export function reconcilerSnapshot(state: {
  running: boolean;
  closed: boolean;
  passInProgress: boolean;
  options: ResolvedOptions;
  /** The effect kinds it runs: those it has a handler for. */
  handles: readonly EffectKind[];
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
    handlers: Object.fromEntries(
      effectKindNames.map((kind) => [effectKinds[kind].handler, state.handles.includes(kind)]),
    ) as ReconcilerSnapshot['handlers'],
  };
}
