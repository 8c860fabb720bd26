import type { Call } from './call.js';
import type { Endpoint, UploadEndpointId } from './endpoints.js';
import { missingCredentials } from './missing-credentials.js';
import { endpointPath } from './paths.js';
import { productOrigin } from './request-target.js';
import type { RequestOptions } from './transport.js';
import type { ResolvedTransportOptions } from './transport-options.js';

/** The per-call options an upload accepts. */
export type UploadOptions = Pick<RequestOptions, 'signal' | 'timeoutMs' | 'merchantReference'>;

/**
 * A `multipart/form-data` upload to a bearer route outside the JSON endpoint table (airtime
 * `customer/bulkpayment`), prepared as a call the transport sends like any other: the product's
 * origin, the path for the environment, the form as the body. Without a held token or
 * credentials to log in with, it is refused here, before anything is sent.
 */
export function uploadCall(
  endpoint: Endpoint & { readonly id: UploadEndpointId },
  form: FormData,
  options: UploadOptions,
  transportOptions: ResolvedTransportOptions,
  heldToken: string | undefined,
): { call: Call; canLogIn: boolean } {
  const path = endpointPath(endpoint, transportOptions.environment, {});
  const url = productOrigin(endpoint.product, transportOptions) + path;
  const canLogIn = transportOptions.credentials[endpoint.product] !== undefined;
  if (!heldToken && !canLogIn) throw missingCredentials(endpoint.product, endpoint, path);
  const call: Call = {
    id: endpoint.id,
    endpoint,
    url,
    path,
    body: form,
    options,
    attempt: 0,
    startedAt: 0,
  };
  return { call, canLogIn };
}
