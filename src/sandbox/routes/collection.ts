import type { FastifyInstance, FastifyReply } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { authenticate } from '../auth/bearer.js';
import { checkLogin } from '../auth/login.js';
import { sameSecret } from '../auth/shared-secret.js';
import type { SandboxContext } from '../context.js';
import { atCapacity } from '../http/capacity.js';
import { CONTROL_URL_MESSAGE, isControlUrl } from '../http/control-path.js';
import { parseBody, sendError, sendValidationError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';
import { collectionUserView } from '../state/accounts.js';
import { type CollectionRecord, collectionView } from '../state/collections.js';
import { autoSettle, openCollection } from '../state/open-collection.js';
import { registerProviderTest } from './provider-test.js';

/** The initiation answer: the two references a merchant must keep, at the top level. */
export function initiationView(record: CollectionRecord, message: string) {
  return {
    message,
    status: record.status,
    controlNumber: record.controlNumber,
    reference: record.reference,
    amount: record.amount,
  };
}

/** Rejects an amount above the sandbox's upper bound (the spec shows none; ours is an option). */
export function aboveMaxAmount(context: SandboxContext, amount: number, reply: FastifyReply) {
  if (amount <= context.options.maxAmount) return false;
  sendValidationError(reply, {
    amount: [`The amount may not be greater than ${context.options.maxAmount}.`],
  });
  return true;
}

/**
 * Refuses a callback_url into the sandbox's own control API (422, nothing recorded); the
 * dispatcher refuses it again at delivery, and the control API refuses marked deliveries.
 */
export function controlCallbackUrl(callbackUrl: string | undefined, reply: FastifyReply) {
  if (callbackUrl === undefined || !isControlUrl(callbackUrl)) return false;
  sendValidationError(reply, { callback_url: [CONTROL_URL_MESSAGE] });
  return true;
}

/** Collection (prefix /api/sandbox): login, initiations, status, pay_mobile, provider test. */
export function registerCollectionRoutes(app: FastifyInstance, context: SandboxContext): void {
  app.post(routePath(endpoints.collectionLogin), async (request, reply) => {
    const account = await checkLogin(context, 'collection', request, reply);
    if (!account) return reply;
    return {
      token: context.tokens.issue('collection', account.id),
      token_type: 'Bearer',
      user: collectionUserView(account),
    };
  });

  app.post(routePath(endpoints.collectionLogout), async (request, reply) => {
    const caller = authenticate(context, 'collection', request, reply);
    if (!caller) return reply;
    context.tokens.revoke(caller.tokenId);
    return { message: 'Logged out; the token is revoked.' };
  });

  // The initiation and status handlers are synchronous: Fastify sends what a synchronous
  // handler returns without the promise (and the microtask turn) an async one costs per request.
  // A handler that has already answered (an error) returns nothing.
  app.post(routePath(endpoints.initiateMno), (request, reply) => {
    const caller = authenticate(context, 'collection', request, reply);
    if (!caller) return;
    const parsed = parseBody(endpoints.initiateMno.request, request.body);
    if (!parsed.ok) {
      sendValidationError(reply, parsed.errors);
      return;
    }
    if (aboveMaxAmount(context, parsed.data.amount, reply)) return;
    if (controlCallbackUrl(parsed.data.callback_url, reply)) return;
    if (atCapacity(context, reply, 'collections', context.collections.size)) return;
    const record = openCollection(context, {
      channel: 'mno',
      ...parsed.data,
      ownerId: caller.account.id,
    });
    autoSettle(context, record);
    return initiationView(record, 'Payment request sent to the customer’s phone.');
  });

  app.post(routePath(endpoints.initiateBank), (request, reply) => {
    const caller = authenticate(context, 'collection', request, reply);
    if (!caller) return;
    const parsed = parseBody(endpoints.initiateBank.request, request.body);
    if (!parsed.ok) {
      sendValidationError(reply, parsed.errors);
      return;
    }
    if (aboveMaxAmount(context, parsed.data.amount, reply)) return;
    if (controlCallbackUrl(parsed.data.callback_url, reply)) return;
    if (atCapacity(context, reply, 'collections', context.collections.size)) return;
    // Bank payments wait for the customer to pay at a bank: only the control API settles them.
    const record = openCollection(context, {
      channel: 'bank',
      ...parsed.data,
      ownerId: caller.account.id,
    });
    return initiationView(record, 'Control number issued; the customer pays it at a bank.');
  });

  app.post(routePath(endpoints.payMobile), (request, reply) => {
    // The API key is optional (spec); when sent, in x-api-key, it must be the sandbox's.
    const key = request.headers['x-api-key'];
    if (key !== undefined && !sameSecret(key, context.options.apiKey)) {
      sendError(reply, 401, 'Unauthenticated: the x-api-key is not valid.');
      return;
    }
    const parsed = parseBody(endpoints.payMobile.request, request.body);
    if (!parsed.ok) {
      sendValidationError(reply, parsed.errors);
      return;
    }
    if (aboveMaxAmount(context, parsed.data.amount, reply)) return;
    if (controlCallbackUrl(parsed.data.callback_url, reply)) return;
    if (atCapacity(context, reply, 'collections', context.collections.size)) return;
    const record = openCollection(context, {
      channel: 'pay_mobile',
      ...parsed.data,
      ownerId: null,
    });
    autoSettle(context, record);
    return initiationView(record, 'Payment request sent to the customer’s phone.');
  });

  app.post(routePath(endpoints.collectionStatus), (request, reply) => {
    const caller = authenticate(context, 'collection', request, reply);
    if (!caller) return;
    const parsed = parseBody(endpoints.collectionStatus.request, request.body);
    if (!parsed.ok) {
      sendValidationError(reply, parsed.errors);
      return;
    }
    const record = context.collections.findByRef(parsed.data.ref_id);
    // A merchant sees its own transactions and the unowned ones (secure, pay_mobile).
    if (!record || (record.ownerId !== null && record.ownerId !== caller.account.id)) {
      sendError(reply, 404, 'No transaction has this control number or reference.');
      return;
    }
    return { message: `The transaction is ${record.status}.`, data: collectionView(record) };
  });

  registerProviderTest(app);
}
