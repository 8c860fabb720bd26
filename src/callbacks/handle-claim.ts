import { traced } from '../observability/traced.js';
import type { InboxClaim } from '../references/inbox/types.js';
import { callbackUnit } from './callback-unit.js';
import { delayFor } from './options.js';
import { asError, type ProcessContext, processEntry } from './process-entry.js';

/** Works one claimed entry and answers the inbox under the claim's fencing token. */
export async function handleClaim(
  context: ProcessContext,
  { entry, token }: InboxClaim,
): Promise<void> {
  const inbox = context.store.inbox;
  try {
    const disposition = await traced(callbackUnit(entry), () => processEntry(context, entry));
    if (disposition.kind === 'complete') {
      await inbox.finish(entry.id, token, { status: 'done', outcome: disposition.outcome });
    } else {
      await inbox.finish(entry.id, token, {
        status: 'pending',
        dueAt: disposition.dueAt,
        error: disposition.note,
      });
    }
  } catch (error) {
    const failure = asError(error);
    context.emit('error', { stage: 'process', error: failure, entryId: entry.id });
    if (entry.attempts >= context.options.maxAttempts) {
      await inbox.finish(entry.id, token, {
        status: 'dead',
        error: `Gave up after ${entry.attempts} attempts: ${failure.message}`,
      });
    } else {
      const delay = delayFor(context.options.retryDelaysMs, entry.attempts);
      await inbox.finish(entry.id, token, {
        status: 'pending',
        dueAt: new Date(context.now().getTime() + delay),
        error: failure.message,
      });
    }
  }
}
