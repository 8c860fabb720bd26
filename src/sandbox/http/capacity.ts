import type { FastifyReply } from 'fastify';
import type { SandboxContext } from '../context.js';
import { sendError } from './replies.js';

/** Each in-memory list has a cap (`recordLimit`): one more is a 429 `sandbox_full`, until a reset. */
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
