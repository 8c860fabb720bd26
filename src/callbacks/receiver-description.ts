import type { ResolvedReceiverOptions, ReturnUrls } from './options.js';

/**
 * What `JSON.stringify(receiver)` and `util.inspect(receiver)` show. Loggers print the objects
 * they are given; the receiver's own fields would not do: eventemitter3 keeps each listener
 * with a back-reference to the receiver (`_events.*.context`), so `JSON.stringify` throws
 * "circular" as soon as anyone listens, and `inspect` prints the listeners' functions. This is
 * the state and the settings only — which handlers are set, never their code, and which return
 * pages are set, never their URLs (a merchant's page may carry a token in its query).
 */
export interface CallbackReceiverDescription {
  kind: 'callbackReceiver';
  /** Between `start()` and `close()`. */
  started: boolean;
  /** Status calls sent so far (after coalescing and rate limiting). */
  pulls: number;
  handlers: Array<'onPaid' | 'onFailed' | 'onReview'>;
  returnUrls: Array<keyof ReturnUrls>;
  options: Omit<ResolvedReceiverOptions, 'onPaid' | 'onFailed' | 'onReview' | 'returnUrls'>;
}

/** The description of a receiver with these options, in this state. */
export function describeReceiver(
  options: ResolvedReceiverOptions,
  state: { started: boolean; pulls: number },
): CallbackReceiverDescription {
  const { onPaid, onFailed, onReview, returnUrls: urls, ...settings } = options;
  const handlers = (['onPaid', 'onFailed', 'onReview'] as const).filter(
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
