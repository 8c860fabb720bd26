import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Product } from '../../schemas/product.js';
import type { SandboxContext } from '../context.js';
import { sendError } from '../http/replies.js';
import type { Account } from '../state/accounts.js';
import type { TokenProblem } from './tokens.js';

const problems: Readonly<Record<TokenProblem, string>> = {
  missing: 'Unauthenticated: send Authorization: Bearer <token> from this product’s login.',
  malformed: 'Unauthenticated: the Authorization header must be "Bearer <token>".',
  unknown: 'Unauthenticated: the token is unknown, revoked, or was issued by another product.',
};

export interface Caller {
  readonly account: Account;
  readonly tokenId: string;
}

/** Why an account may not use its product now (the login rules), or `undefined`. */
export function accountBlock(account: Account): { status: 401 | 403; message: string } | undefined {
  if (account.product === 'airtime' && account.role_id === 2 && account.status !== 'active') {
    return {
      status: 403,
      message: `This airtime account is ${account.status}; a user (role 2) must be active to proceed.`,
    };
  }
  if (
    account.product === 'disbursement' &&
    (account.status === 'unverified' || account.status === 'rejected')
  ) {
    return { status: 401, message: `This disbursement account is ${account.status}.` };
  }
  return undefined;
}

/** Authenticates a bearer route; sends the 401/403 itself and returns `undefined` on refusal. */
export function authenticate(
  context: SandboxContext,
  product: Product,
  request: FastifyRequest,
  reply: FastifyReply,
): Caller | undefined {
  const lookup = context.tokens.lookup(product, request.headers.authorization);
  const account = lookup.ok ? context.accounts.findById(product, lookup.accountId) : undefined;
  if (!lookup.ok || !account) {
    sendError(reply, 401, problems[lookup.ok ? 'unknown' : lookup.problem]);
    return undefined;
  }
  const block = accountBlock(account);
  if (block) {
    sendError(reply, block.status, block.message);
    return undefined;
  }
  return { account, tokenId: lookup.tokenId };
}
