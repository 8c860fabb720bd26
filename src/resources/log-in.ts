import { loginEndpoints, type ResponseOf } from '../core/endpoints.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import type { LoginRequest } from '../schemas/account.js';
import type { Product } from '../schemas/product.js';
import { type CallOptions, transportOptions } from './call-options.js';
import type { ClientContext } from './client-context.js';

type LoginResponse<P extends Product> = ResponseOf<(typeof loginEndpoints)[P]>;

/** Logs in with the given or configured credentials, keeps the token, returns the answer. */
export async function logIn<P extends Product>(
  context: ClientContext,
  product: P,
  credentials: LoginRequest | undefined,
  options?: CallOptions,
): Promise<LoginResponse<P>> {
  const id = loginEndpoints[product];
  const body = credentials ?? context.credentials[product];
  if (body === undefined) {
    throw new RequestValidationError(id, {
      credentials: [
        `No ${product} credentials: pass { email, password } to login(), or credentials.${product} to new Pesakit().`,
      ],
    });
  }
  const response = (await context.transport.request(id, {
    body,
    ...transportOptions(options),
  } as never)) as LoginResponse<P>;
  context.transport.setToken(product, response.token);
  return response;
}
