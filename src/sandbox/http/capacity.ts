import type { FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import { sendError } from './replies.js';

/**
 * The sandbox keeps everything in memory, so each list of records has a cap (`recordLimit`,
 * 10 000 by default): collections, airtime payments, recharges, payouts, and accounts
 * registered through the API. A request that would add one more is answered 429 with
 * `code: "sandbox_full"` and changes nothing; `POST _control/reset` empties the lists. (Logs
 * need no refusal: the SMS outbox and the delivery log keep their latest 1 000 entries, and
 * live tokens their latest 10 000.)
 */
export function atCapacity(
  context: SandboxContext,
  reply: FastifyReply,
  what: string,
  count: number,
): boolean {
  const limit = context.options.recordLimit;
  if (count < limit) return false;
  sendError(
    reply,
    429,
    `The sandbox already holds its maximum of ${limit} ${what}; reset it (POST /api/sandbox/_control/reset) to start again.`,
    'sandbox_full',
  );
  return true;
}
