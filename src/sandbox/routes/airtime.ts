import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { completeAirtimePurchase } from '../airtime-purchase.js';
import { authenticate } from '../auth/bearer.js';
import { checkLogin } from '../auth/login.js';
import type { SandboxContext } from '../context.js';
import { merchantReferenceOf } from '../http/merchant-reference.js';
import { atCapacity, parseBody, sendError, sendValidationError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';
import { toCents, WALLET_LIMIT_MESSAGE } from '../money.js';
import { newControlNumber, unique } from '../references.js';
import { registerAccount } from '../state/account-setup.js';
import { airtimeUserView } from '../state/accounts.js';
import { airtimePaymentView } from '../state/airtime.js';
import { aboveMaxAmount } from './accept-initiation.js';

export function registerAirtimeRoutes(app: FastifyInstance, context: SandboxContext): void {
  const userWithWallet = (accountId: number) => ({
    ...airtimeUserView(context.accounts.findById('airtime', accountId)!),
    wallet: context.wallets.of('airtime', accountId).view(),
  });
  app.post(routePath(endpoints.airtimeRegister), async (request, reply) => {
    const parsed = parseBody(endpoints.airtimeRegister.request, request.body, reply);
    if (!parsed) return reply;
    const fields = { product: 'airtime' as const, ...parsed, role_id: 2 as const };
    const account = await registerAccount(context, fields, reply);
    if (!account) return reply;
    return reply.code(201).send({
      message: 'Registered. The account is pending activation.',
      user: airtimeUserView(account),
    });
  });
  app.post(routePath(endpoints.airtimeLogin), async (request, reply) => {
    const account = await checkLogin(context, 'airtime', request, reply);
    if (!account) return reply;
    return {
      token: context.tokens.issue('airtime', account.id),
      token_type: 'Bearer',
      user: userWithWallet(account.id),
    };
  });
  app.get(routePath(endpoints.airtimeUser), async (request, reply) => {
    const caller = authenticate(context, 'airtime', request, reply);
    if (!caller) return reply;
    return { user: userWithWallet(caller.account.id) };
  });
  // Purchase rules 1–7 of the spec, in order.
  app.post(routePath(endpoints.airtimePurchase), async (request, reply) => {
    const caller = authenticate(context, 'airtime', request, reply);
    if (!caller) return reply;
    const parsed = parseBody(endpoints.airtimePurchase.request, request.body, reply);
    if (!parsed) return reply;
    const { msisdn, amount } = parsed;
    if (aboveMaxAmount(context, amount, reply)) return reply;
    if (atCapacity(context, reply, 'airtime payments', context.airtime.payments.length)) {
      return reply;
    }
    // 2–3. The amount is held with the balance check, so concurrent purchases cannot spend it twice.
    const wallet = context.wallets.of('airtime', caller.account.id);
    const hold = wallet.reserve(toCents(amount));
    if (!hold) {
      return sendValidationError(
        reply,
        { amount: ['The amount may not be greater than the wallet balance.'] },
        'insufficient_funds',
      );
    }
    const record = await completeAirtimePurchase(context, {
      accountId: caller.account.id,
      msisdn,
      amount,
      hold,
      merchantReference: merchantReferenceOf(request),
    });
    return {
      status: record.status,
      message: record.message,
      payment: airtimePaymentView(record),
    };
  });
  app.post(routePath(endpoints.airtimeRecharge), async (request, reply) => {
    const caller = authenticate(context, 'airtime', request, reply);
    if (!caller) return reply;
    const parsed = parseBody(endpoints.airtimeRecharge.request, request.body, reply);
    if (!parsed) return reply;
    if (aboveMaxAmount(context, parsed.amount, reply)) return reply;
    if (atCapacity(context, reply, 'recharges', context.airtime.recharges.size)) return reply;
    const now = context.nowIso();
    const controlNumber = unique(
      newControlNumber,
      (value) => context.airtime.recharges.has(value) || context.collections.isTaken(value),
    );
    const recharge = {
      controlNumber,
      accountId: caller.account.id,
      amount: parsed.amount,
      msisdn: parsed.msisdn ?? null,
      status: 'pending' as const,
      created_at: now,
      updated_at: now,
    };
    context.airtime.recharges.set(controlNumber, recharge);
    const merchantReference = merchantReferenceOf(request);
    context.journal.add({ kind: 'recharge', merchantReference, record: recharge });
    context.actedOn({
      product: 'airtime',
      operation: 'airtime_recharge',
      merchant_reference: merchantReference,
      amount: recharge.amount,
      msisdn: recharge.msisdn,
      outcome: recharge.status,
      reference: controlNumber,
    });
    return {
      message: 'Recharge started. Pay the control number to top up the wallet.',
      controlNumber,
      status: 'pending',
      amount: parsed.amount,
    };
  });
  // Unsigned, yet safe: a recharge leaves pending once, checked and credited in one step.
  app.post(routePath(endpoints.airtimeRechargeCallback), async (request, reply) => {
    const parsed = parseBody(endpoints.airtimeRechargeCallback.request, request.body, reply);
    if (!parsed) return reply;
    const { controlNumber, status } = parsed;
    const recharge = context.airtime.recharges.get(controlNumber);
    if (!recharge) return sendError(reply, 404, `No recharge has control number ${controlNumber}.`);
    if (recharge.status !== 'pending') {
      return {
        message: `The recharge was already ${recharge.status === 'success' ? 'confirmed' : 'failed'}; nothing changed.`,
        controlNumber,
        status: recharge.status,
      };
    }
    const wallet = context.wallets.of('airtime', recharge.accountId);
    const cents = toCents(recharge.amount);
    // Checked before anything changes: a refused confirmation leaves the recharge pending.
    if (status && !wallet.canCredit(cents)) {
      return sendValidationError(reply, { status: [WALLET_LIMIT_MESSAGE] }, 'wallet_limit');
    }
    recharge.status = status ? 'success' : 'failed';
    recharge.updated_at = context.nowIso();
    if (status) wallet.credit(cents, 'recharge', controlNumber);
    return {
      message: status ? 'Recharge confirmed; the wallet was credited.' : 'Recharge failed.',
      controlNumber,
      status: recharge.status,
    };
  });
}
