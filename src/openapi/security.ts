import type { AuthScheme } from '../core/endpoints.js';
import type { OpenApiSecurityRequirement, OpenApiSecurityScheme } from './types.js';

export const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      "The token from the product's own login. Tokens are valid only for the product that " +
      'issued them; logout revokes one.',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'Optional on pay_mobile; when sent, it must be valid, otherwise 401.',
  },
  engineKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-engine-key',
    description:
      "The collection engine's key on its settlement callback. The sandbox requires it only " +
      'when started with an engine key.',
  },
} as const satisfies Record<string, OpenApiSecurityScheme>;

/**
 * Each scheme's requirement; `{}` first means "or no credentials". Public operations say `[]`
 * outright (no credentials at all; the checkout's payment token travels in the body).
 */
export const securityByAuth: Readonly<Record<AuthScheme, OpenApiSecurityRequirement[]>> = {
  bearer: [{ bearerAuth: [] }],
  'api-key': [{}, { apiKey: [] }],
  engine: [{}, { engineKey: [] }],
  'payment-token': [],
  none: [],
};

/** What a reader must know about an auth scheme that `security` cannot say. */
export const authNotes: Readonly<Partial<Record<AuthScheme, string>>> = {
  'payment-token':
    "Authorised by the hosted checkout's `payment_token` (from initiate-secure-payment), " +
    'sent in the JSON body as `token`; no header.',
};
