import { AuthenticationError } from '../errors/authentication-error.js';
import type { Endpoint, Product } from './endpoints.js';

/**
 * The error for a bearer call made with neither a token nor credentials, thrown before
 * sending: the platform could only answer 401, and a request that cannot succeed is better not
 * sent at all. It is an AuthenticationError (status 401, `code: 'missing_credentials'`, no
 * headers) so that one `isAuthenticationError` check covers every "not logged in" case.
 */
export function missingCredentials(
  product: Product,
  endpoint: Endpoint,
  path: string,
): AuthenticationError {
  const message =
    `${endpoint.method} ${path} needs a ${product} bearer token, and no ${product} credentials ` +
    `were given. Pass \`credentials.${product}\` ({ email, password }) to log in automatically, ` +
    `or call setToken('${product}', token). Nothing was sent.`;
  const body = { message: 'Unauthenticated.', code: 'missing_credentials' };
  return new AuthenticationError(message, {
    status: 401,
    body,
    headers: new Headers(),
    method: endpoint.method,
    path,
  });
}
