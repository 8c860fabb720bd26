import type { FastifyReply } from 'fastify';
import type { Product } from '../../core/endpoints.js';
import { loginRequestSchema } from '../../schemas/account.js';
import type { SandboxContext } from '../context.js';
import { parseBody, sendError, sendValidationError } from '../http/replies.js';
import type { Account } from '../state/accounts.js';
import { accountBlock } from './bearer.js';
import { verifyPassword } from './passwords.js';

/**
 * The login steps every product shares: validate, check the password (in constant time, the
 * same cost for an unknown email), then the product's status rules. Sends the error itself and
 * returns `undefined` on failure; the caller issues the token.
 */
export async function checkLogin(
  context: SandboxContext,
  product: Product,
  body: unknown,
  reply: FastifyReply,
): Promise<Account | undefined> {
  const parsed = parseBody(loginRequestSchema, body);
  if (!parsed.ok) {
    sendValidationError(reply, parsed.errors);
    return undefined;
  }
  const account = context.accounts.find(product, parsed.data.email);
  const valid = await verifyPassword(parsed.data.password, account?.passwordHash);
  if (!account || !valid) {
    sendError(reply, 401, 'These credentials do not match our records.');
    return undefined;
  }
  const block = accountBlock(account);
  if (block) {
    sendError(reply, block.status, block.message);
    return undefined;
  }
  return account;
}
