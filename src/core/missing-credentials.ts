import { AuthenticationError } from '../errors/authentication-error.js';
import type { Product } from '../schemas/product.js';
import type { Endpoint } from './endpoints.js';

/** A bearer call with no token nor credentials, refused unsent as a 401 AuthenticationError. */
export function missingCredentials(
  product: Product,
  endpoint: Endpoint,
  path: string,
): AuthenticationError {
  const message =
    `${endpoint.method} ${path} needs a bearer token for the ${product} product, and no ${product} credentials ` +
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
