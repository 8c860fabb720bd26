import { ConfigurationError } from '../errors/configuration-error.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { fieldErrorsFrom } from '../schemas/error-body.js';
import type { Product } from '../schemas/product.js';
import type { Call } from './call.js';
import {
  type Endpoint,
  type EndpointId,
  type Environment,
  sandboxPrefixes,
  type UploadEndpointId,
} from './endpoints.js';
import type { RequestOptions } from './request-options.js';
import type { ResolvedTransportOptions } from './transport-options.js';

/** A call to `path`, after every check that can fail before a byte is sent. */
export function checkedCall(
  id: EndpointId | UploadEndpointId,
  endpoint: Endpoint,
  path: string,
  body: unknown,
  options: RequestOptions,
  transportOptions: ResolvedTransportOptions,
): Call {
  // -1, 0 or NaN would fire at once: for a money call, an `unknown` after it was sent.
  const { timeoutMs } = options;
  if (
    timeoutMs !== undefined &&
    !(typeof timeoutMs === 'number' && timeoutMs >= 1 && timeoutMs <= 2_147_483_647)
  ) {
    throw new RequestValidationError(id, {
      timeoutMs: ['The timeoutMs must be a number of milliseconds from 1 to 2147483647.'],
    });
  }
  const checkedBody =
    body instanceof FormData
      ? body
      : validatedBody(id, endpoint, transportOptions.environment, body);
  // A malformed header is refused here, before anything is stored or sent.
  if (options.headers !== undefined) new Headers(options.headers);
  const url = productOrigin(endpoint.product, transportOptions) + path;
  return { id, endpoint, url, path, body: checkedBody, options, attempt: 0, startedAt: 0 };
}

/** The body checked and normalised by the request schema, before anything is sent or stored. */
export function validatedBody(
  operation: string,
  endpoint: Endpoint,
  environment: Environment,
  body: unknown,
): unknown {
  const template = environment === 'sandbox' ? sandboxPrefixes[endpoint.product] : '';
  const request = {
    method: endpoint.method,
    path: template + (environment === 'sandbox' ? endpoint.sandboxPath : endpoint.productionPath),
  };
  if (endpoint.request === undefined) {
    if (body === undefined) return undefined;
    const errors = { body: ['This endpoint takes no request body.'] };
    throw new RequestValidationError(operation, errors, request);
  }
  const parsed = endpoint.request.safeParse(body);
  if (!parsed.success) {
    throw new RequestValidationError(operation, fieldErrorsFrom(parsed.error, body), request);
  }
  return parsed.data;
}

/** The origin serving `product`; production has one host per product, so only `baseUrls`. */
export function productOrigin(product: Product, options: ResolvedTransportOptions): string {
  const origin =
    options.baseUrls[product] ?? (options.environment === 'sandbox' ? options.baseUrl : undefined);
  if (origin === undefined) {
    throw new ConfigurationError(
      options.environment === 'production' ? `baseUrls.${product}` : 'baseUrl',
      options.environment === 'production'
        ? `No production host for the ${product} product: set \`baseUrls.${product}\` ` +
            '(each product has its own host in production).'
        : `No base URL for the ${product} product: set \`baseUrl\` (one sandbox origin for ` +
            `every product) or \`baseUrls.${product}\`.`,
    );
  }
  return origin.replace(/\/+$/, '');
}
