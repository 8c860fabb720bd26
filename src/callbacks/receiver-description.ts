import type { SettlementHandlers } from '../settlement/effects.js';
import type { ResolvedReceiverOptions } from './options.js';
import type { ReturnUrls } from './return-urls.js';

/** What logs show of a receiver: never handlers' code nor return URLs (they may carry tokens). */
export interface CallbackReceiverDescription {
  kind: 'callbackReceiver';
  started: boolean;
  pulls: number;
  handlers: Array<keyof SettlementHandlers>;
  returnUrls: Array<keyof ReturnUrls>;
  options: Omit<ResolvedReceiverOptions, keyof SettlementHandlers | 'returnUrls'>;
}

export function describeReceiver(
  options: ResolvedReceiverOptions,
  state: { started: boolean; pulls: number },
): CallbackReceiverDescription {
  const { onPaid, onFailed, onSent, onNotSent, onReview, returnUrls: urls, ...settings } = options;
  const handlers = (['onPaid', 'onFailed', 'onSent', 'onNotSent', 'onReview'] as const).filter(
    (name) => typeof options[name] === 'function',
  );
  const returnUrls = (['paid', 'pending', 'failed'] as const).filter(
    (outcome) => urls?.[outcome] !== undefined,
  );
  return {
    kind: 'callbackReceiver',
    started: state.started,
    pulls: state.pulls,
    handlers,
    returnUrls,
    options: {
      ...settings,
      retryDelaysMs: [...settings.retryDelaysMs],
      recheckDelaysMs: [...settings.recheckDelaysMs],
      inboxRetention: settings.inboxRetention && { ...settings.inboxRetention },
    },
  };
}
