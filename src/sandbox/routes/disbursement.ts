import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { authenticate } from '../auth/bearer.js';
import { checkLogin } from '../auth/login.js';
import type { SandboxContext } from '../context.js';
import { parseBody } from '../http/replies.js';
import { routePath } from '../http/route-path.js';
import { registerAccount } from '../state/account-setup.js';
import { disbursementUserView } from '../state/accounts.js';
import { disbursementView } from '../state/disbursements.js';
import { registerPayout } from './payout.js';

export function registerDisbursementRoutes(app: FastifyInstance, context: SandboxContext): void {
  const walletOf = (accountId: number) => context.wallets.of('disbursement', accountId).view();
  app.post(routePath(endpoints.disbursementRegister), async (request, reply) => {
    const parsed = parseBody(endpoints.disbursementRegister.request, request.body, reply);
    if (!parsed) return reply;
    const fields = { product: 'disbursement' as const, ...parsed };
    const account = await registerAccount(context, fields, reply);
    if (!account) return reply;
    // The spec issues a token at registration; it works once the account is verified.
    return reply.code(201).send({
      message: 'Registered. The account is unverified until it is verified.',
      user: disbursementUserView(account),
      token: context.tokens.issue('disbursement', account.id),
    });
  });
  app.post(routePath(endpoints.disbursementLogin), async (request, reply) => {
    const account = await checkLogin(context, 'disbursement', request, reply);
    if (!account) return reply;
    return {
      user: disbursementUserView(account),
      wallet: walletOf(account.id),
      token: context.tokens.issue('disbursement', account.id),
    };
  });
  app.post(routePath(endpoints.disbursementLogout), async (request, reply) => {
    const caller = authenticate(context, 'disbursement', request, reply);
    if (!caller) return reply;
    context.tokens.revoke(caller.tokenId);
    return { message: 'Logged out; the token is revoked.' };
  });
  app.get(routePath(endpoints.disbursementUser), async (request, reply) => {
    const caller = authenticate(context, 'disbursement', request, reply);
    if (!caller) return reply;
    return { user: disbursementUserView(caller.account), wallet: walletOf(caller.account.id) };
  });
  app.post(routePath(endpoints.disbursementPayments), async (request, reply) => {
    const caller = authenticate(context, 'disbursement', request, reply);
    if (!caller) return reply;
    const parsed = parseBody(endpoints.disbursementPayments.request, request.body, reply);
    if (!parsed) return reply;
    const page = parsed.page ?? 1;
    const perPage = parsed.per_page ?? 15;
    const start = (page - 1) * perPage;
    const { records, total } = context.disbursements.pageOfAccount(
      caller.account.id,
      start,
      perPage,
    );
    return {
      payments: {
        data: records.map(disbursementView),
        current_page: page,
        per_page: perPage,
        total,
        last_page: Math.max(1, Math.ceil(total / perPage)),
        from: total > start ? start + 1 : null,
        to: total > start ? Math.min(start + perPage, total) : null,
      },
    };
  });
  registerPayout(app, context);
}
