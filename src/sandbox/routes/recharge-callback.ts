import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import type { SandboxContext } from '../context.js';
import { parseBody, sendError, sendValidationError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';
import { toCents, WALLET_LIMIT_MESSAGE } from '../money.js';

/**
 * The unsigned recharge callback `{controlNumber, status}`: safe because a recharge leaves pending
 * once, checked and credited in one synchronous step. `status: false` fails it.
 */
export function registerRechargeCallback(app: FastifyInstance, context: SandboxContext): void {
  app.post(routePath(endpoints.airtimeRechargeCallback), async (request, reply) => {
    const parsed = parseBody(endpoints.airtimeRechargeCallback.request, request.body);
    if (!parsed.ok) return sendValidationError(reply, parsed.errors);
    const { controlNumber, status } = parsed.data;
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
