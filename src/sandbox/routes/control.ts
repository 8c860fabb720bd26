import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHostGuard, type HostGuard } from '../../internal/host-guard.js';
import { sameSecret } from '../../internal/shared-secret.js';
import type { SandboxContext } from '../context.js';
import { faultSettingsSchema } from '../delivery/faults.js';
import { CONTROL_PREFIX, DELIVERY_MARK_HEADER } from '../http/control-path.js';
import { forgeryRefusal } from '../http/cross-site.js';
import { parseBody, sendError, sendValidationError } from '../http/replies.js';
import { toCents, toShillings, WALLET_LIMIT_MESSAGE } from '../money.js';
import { createAccount, updateAccount } from '../state/account-setup.js';
import { type Account, accountView } from '../state/accounts.js';
import { airtimePaymentView } from '../state/airtime.js';
import {
  airtimePaymentsQuerySchema,
  chaosControlSchema,
  controlAccountSchema,
  pageQuerySchema,
  settleSchema,
  transactionsQuerySchema,
  walletCreditSchema,
} from './control-schemas.js';
import { ledgerPage } from './ledger-listing.js';

/** Who may drive the sandbox: loopback or `allowedHosts`, and the control key when one is set. */
function controlRefusal(context: SandboxContext, guard: HostGuard, request: FastifyRequest) {
  // The sandbox's own callback deliveries are never a control caller, key or no key.
  if (request.headers[DELIVERY_MARK_HEADER] !== undefined) {
    return {
      status: 403,
      message: "The control API does not answer the sandbox's own callback deliveries.",
    };
  }
  // A foreign Host or Origin is a web page that pointed its own name at this machine.
  const foreign = guard.refusal(request.headers.host, request.headers.origin);
  if (foreign !== undefined) return { status: 403, message: foreign };
  const key = context.options.controlKey;
  if (key !== undefined) {
    return sameSecret(request.headers['x-control-key'], key)
      ? undefined
      : { status: 401, message: 'The control API needs a valid x-control-key header.' };
  }
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || /^(::ffff:)?127\./.test(address)
    ? undefined
    : { status: 403, message: 'The control API answers loopback callers only.' };
}

export function registerControlRoutes(
  app: FastifyInstance,
  context: SandboxContext,
  reset: () => Promise<void>,
): void {
  const guard = createHostGuard(
    context.options.allowedHosts,
    'to allow another name, list it in the allowedHosts option (pesakit sandbox --allowed-host <name>)',
  );
  app.register(
    async (control) => {
      control.addHook('onRequest', async (request, reply) => {
        const refusal = controlRefusal(context, guard, request);
        if (refusal) return sendError(reply, refusal.status, refusal.message);
        if (request.method !== 'GET' && request.method !== 'HEAD') {
          const forgery = forgeryRefusal(request);
          if (forgery) return sendError(reply, forgery.status, forgery.message);
        }
      });
      control.post('/accounts', async (request, reply) => {
        const parsed = parseBody(controlAccountSchema, request.body, reply);
        if (!parsed) return reply;
        const { status, ...fields } = parsed;
        const input = { ...fields, status: status as Account['status'] | undefined };
        const existing = context.accounts.find(fields.product, fields.email);
        if (existing) {
          const account = await updateAccount(context, existing, input);
          return { message: 'Account updated.', account: accountView(account) };
        }
        if (fields.password === undefined) {
          return sendValidationError(reply, {
            password: ['The password field is required when creating an account.'],
          });
        }
        const account = await createAccount(
          context,
          { ...input, password: fields.password },
          'control',
        );
        return reply.code(201).send({ message: 'Account created.', account: accountView(account) });
      });
      control.post('/wallets/credit', async (request, reply) => {
        const parsed = parseBody(walletCreditSchema, request.body, reply);
        if (!parsed) return reply;
        const account = context.accounts.find(parsed.product, parsed.email);
        if (!account) return sendError(reply, 404, `No ${parsed.product} account has this email.`);
        const wallet = context.wallets.of(account.product, account.id);
        const cents = toCents(parsed.amount);
        if (!wallet.canCredit(cents)) {
          return sendValidationError(reply, { amount: [WALLET_LIMIT_MESSAGE] }, 'wallet_limit');
        }
        wallet.credit(cents, 'credit', 'control');
        return { balance: toShillings(wallet.balance) };
      });
      control.post('/collection/settle', async (request, reply) => {
        const parsed = parseBody(settleSchema, request.body, reply);
        if (!parsed) return reply;
        const record = context.collections.findByRef(parsed.ref_id);
        if (!record)
          return sendError(reply, 404, 'No transaction has this control number or reference.');
        // The engine calls the sandbox's own callback route over HTTP; its answer is passed on.
        const result = await context.engine.settle(record, parsed.outcome);
        return reply.code(result.statusCode).send(result.body);
      });
      control.get('/sms', async () => ({ messages: context.sms.list() }));
      // Every airtime payment, oldest first: tests ask how often a number was paid.
      control.get('/airtime/payments', async (request, reply) => {
        const parsed = parseBody(airtimePaymentsQuerySchema, request.query, reply);
        if (!parsed) return reply;
        const { msisdn, reference, status } = parsed;
        const payments = context.airtime.payments
          .filter(
            (payment) =>
              (msisdn === undefined || payment.msisdn === msisdn) &&
              (reference === undefined || payment.reference === reference) &&
              (status === undefined || payment.status === status),
          )
          .map(airtimePaymentView);
        return { count: payments.length, payments };
      });
      // The logs a verifier reads, a page at a time: `next` is the `after` of the next page, and
      // `dropped` counts entries lost to `logLimit` (non-zero: the log is not complete).
      control.get('/deliveries', async (request, reply) => {
        const query = parseBody(pageQuerySchema, request.query, reply);
        if (!query) return reply;
        const { items, ...page } = context.dispatcher.page(query.after, query.limit);
        return { deliveries: items, ...page };
      });
      control.get('/requests', async (request, reply) => {
        const query = parseBody(pageQuerySchema, request.query, reply);
        if (!query) return reply;
        const { items, ...page } = context.requests.page(query.after, query.limit);
        return { requests: items, ...page };
      });
      // Every product's transactions (collections, airtime payments, recharges, payouts).
      control.get('/transactions', async (request, reply) => {
        const query = parseBody(transactionsQuerySchema, request.query, reply);
        if (!query) return reply;
        const { items, ...page } = context.journal.page(query.after, query.limit, query.kind);
        return { transactions: items, ...page };
      });
      // Every wallet movement of every account, with the account's product and email.
      control.get('/ledger', async (request, reply) => {
        const query = parseBody(pageQuerySchema, request.query, reply);
        if (!query) return reply;
        const { items, ...page } = ledgerPage(context, query.after, query.limit);
        return { entries: items, ...page };
      });
      control.get('/chaos', async (request, reply) => {
        const query = parseBody(pageQuerySchema, request.query, reply);
        if (!query) return reply;
        const { items, ...page } = context.chaos.page(query.after, query.limit);
        return { chaos: context.chaos.describe(), timeline: items, ...page };
      });
      control.post('/chaos', async (request, reply) => {
        const parsed = parseBody(chaosControlSchema, request.body, reply);
        if (!parsed) return reply;
        if (!context.chaos.enabled) {
          return sendError(
            reply,
            409,
            'Chaos mode is off: start the sandbox with the chaos option (pesakit sandbox --chaos <seed>).',
            'chaos_off',
          );
        }
        context.chaos.setPaused(parsed.paused);
        return { chaos: context.chaos.describe() };
      });
      control.get('/faults', async () => ({ faults: context.faults }));
      control.post('/faults', async (request, reply) => {
        const parsed = parseBody(faultSettingsSchema, request.body, reply);
        if (!parsed) return reply;
        return { faults: context.faultBoard.patch(parsed) };
      });
      control.post('/reset', async () => {
        await reset();
        return { message: 'The sandbox was reset to its seed.' };
      });
    },
    { prefix: CONTROL_PREFIX },
  );
}
