import type { FastifyReply, FastifyRequest } from 'fastify';
import { loginRequestSchema } from '../../schemas/account.js';
import type { Product } from '../../schemas/product.js';
import type { SandboxContext } from '../context.js';
import { parseBody, sendError } from '../http/replies.js';
import type { Account } from '../state/accounts.js';
import { accountBlock } from './bearer.js';
import { verifyPassword } from './passwords.js';

export async function checkLogin(
  context: SandboxContext,
  product: Product,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Account | undefined> {
  const parsed = parseBody(loginRequestSchema, request.body, reply);
  if (!parsed) return undefined;
  // Counted now, synchronously, before the password is hashed (see LoginLimits).
  const attempt = context.loginLimits.attempt(request, product, parsed.email);
  if ('retryAfterSeconds' in attempt) {
    reply.header('retry-after', String(attempt.retryAfterSeconds));
    sendError(
      reply,
      429,
      `Too many failed logins; try again in ${attempt.retryAfterSeconds} s.`,
      'too_many_logins',
    );
    return undefined;
  }
  const account = context.accounts.find(product, parsed.email);
  const valid = await verifyPassword(parsed.password, account?.passwordHash);
  if (!account || !valid) {
    sendError(reply, 401, 'These credentials do not match our records.');
    return undefined;
  }
  attempt.succeeded();
  const refusal = accountBlock(account);
  if (refusal) {
    sendError(reply, refusal.status, refusal.message);
    return undefined;
  }
  return account;
}
