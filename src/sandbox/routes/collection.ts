import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { sameSecret } from '../../internal/shared-secret.js';
import { authenticate } from '../auth/bearer.js';
import { checkLogin } from '../auth/login.js';
import type { SandboxContext } from '../context.js';
import { merchantReferenceOf } from '../http/merchant-reference.js';
import { parseBody, sendError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';
import { collectionUserView } from '../state/accounts.js';
import { collectionView } from '../state/collections.js';
import { acceptInitiation } from './accept-initiation.js';
import { registerProviderTest } from './provider-test.js';

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
  // These handlers are synchronous: one that has already answered (an error) returns nothing.
  for (const [channel, endpoint] of [
    ['mno', endpoints.initiateMno],
    ['bank', endpoints.initiateBank],
  ] as const) {
    app.post(routePath(endpoint), (request, reply) => {
      const caller = authenticate(context, 'collection', request, reply);
      if (!caller) return;
      const initiation = {
        body: request.body,
        ownerId: caller.account.id,
        merchantReference: merchantReferenceOf(request),
      };
      return acceptInitiation(context, channel, endpoint.request, initiation, reply);
    });
  }

  app.post(routePath(endpoints.payMobile), (request, reply) => {
    // The API key is optional (spec); when sent, in x-api-key, it must be the sandbox's.
    const key = request.headers['x-api-key'];
    if (key !== undefined && !sameSecret(key, context.options.apiKey)) {
      sendError(reply, 401, 'Unauthenticated: the x-api-key is not valid.');
      return;
    }
    const initiation = {
      body: request.body,
      ownerId: null,
      merchantReference: merchantReferenceOf(request),
    };
    return acceptInitiation(context, 'pay_mobile', endpoints.payMobile.request, initiation, reply);
  });
  app.post(routePath(endpoints.collectionStatus), (request, reply) => {
    const caller = authenticate(context, 'collection', request, reply);
    if (!caller) return;
    const parsed = parseBody(endpoints.collectionStatus.request, request.body, reply);
    if (!parsed) return;
    const record = context.collections.findByRef(parsed.ref_id);
    // A merchant sees its own transactions and the unowned ones (secure, pay_mobile).
    if (!record || (record.ownerId !== null && record.ownerId !== caller.account.id)) {
      sendError(reply, 404, 'No transaction has this control number or reference.');
      return;
    }
    return { message: `The transaction is ${record.status}.`, data: collectionView(record) };
  });
  registerProviderTest(app);
}
