import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { testProviderSchema } from '../../schemas/collection.js';
import { sendError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';

/** The published key of the sample tokens (docs/sandbox.md § Provider test tokens); protects nothing. */
export const PROVIDER_TEST_SECRET = 'pesakit-sandbox-provider-test';

/** `merchant/test-<provider>`: a token `base64url(payload).base64url(HMAC)` and its SHA-256 `hash`. */
export function registerProviderTest(app: FastifyInstance): void {
  app.post(routePath(endpoints.providerTest), async (request, reply) => {
    const { provider: name } = request.params as { provider: string };
    const provider = testProviderSchema.safeParse(name);
    if (!provider.success) {
      return sendError(
        reply,
        404,
        `Unknown provider "${name.slice(0, 40)}"; known: ${testProviderSchema.options.join(', ')}.`,
      );
    }
    const payload = Buffer.from(
      JSON.stringify({
        provider: provider.data,
        merchant: 'sandbox',
        iat: Math.floor(Date.now() / 1000),
      }),
    ).toString('base64url');
    const signature = createHmac('sha256', PROVIDER_TEST_SECRET)
      .update(payload)
      .digest('base64url');
    const token = `${payload}.${signature}`;
    return {
      provider: provider.data,
      token,
      hash: createHash('sha256').update(token).digest('hex'),
      algorithm: 'HMAC-SHA256',
    };
  });
}
