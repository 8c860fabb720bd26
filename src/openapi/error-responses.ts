import type { Endpoint, EndpointId } from '../core/endpoints.js';
import { errorBodySchema, validationErrorBodySchema } from '../schemas/error-body.js';
import type { SchemaComponents } from './schema-components.js';
import type { OpenApiResponse } from './types.js';

type Descriptions = Readonly<
  Partial<Record<400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429, string>>
>;

const unknownPaymentToken = 'The payment token is unknown.';

const rateLimited =
  'Too many requests: the platform (in the sandbox, the `rateLimit` fault) asks the client to ' +
  'wait; `Retry-After` says how many seconds. Nothing happened.';

const tooManyLogins =
  'Too many failed logins for this account or address within the window ' +
  '(`code: "too_many_logins"`, `Retry-After` in seconds), or the `rateLimit` fault.';

const sandboxFull =
  ' In the sandbox also when its in-memory list of this kind is full (`code: "sandbox_full"`, ' +
  'no `Retry-After`): reset it.';

/** Errors particular to one endpoint; a description here replaces the common one. */
const endpointErrors: Readonly<Partial<Record<EndpointId | 'airtimeBulkPayment', Descriptions>>> = {
  collectionLogin: { 401: 'These credentials do not match our records.', 429: tooManyLogins },
  airtimeLogin: {
    401: 'These credentials do not match our records.',
    403: 'A user (role 2) whose status is not active may not log in.',
    429: tooManyLogins,
  },
  disbursementLogin: {
    401: 'The credentials do not match, or the account is unverified or rejected.',
    429: tooManyLogins,
  },
  airtimeRegister: {
    422: 'A field broke a rule, or the email is already taken (`errors.email`).',
    429: rateLimited + sandboxFull,
  },
  disbursementRegister: {
    422: 'A field broke a rule, or the email is already taken (`errors.email`).',
    429: rateLimited + sandboxFull,
  },
  collectionStatus: {
    404:
      'No transaction visible to this merchant (its own, or an unowned secure or pay_mobile ' +
      'one) has this control number or reference.',
  },
  checkoutMno: {
    401: unknownPaymentToken,
    409: 'The checkout is no longer pending, or a phone payment for it is already in progress.',
  },
  portalSession: { 401: unknownPaymentToken, 409: 'The checkout is no longer pending.' },
  engineCallback: {
    401: 'The x-engine-key is missing or not valid (when an engine key is configured).',
    404: 'No transaction has this paymentReference.',
  },
  payMobile: { 401: 'An x-api-key was sent and it is not valid.' },
  providerTest: { 404: 'Unknown provider; the known ones are listed in the message.' },
  airtimeRechargeCallback: { 404: 'No recharge has this controlNumber.' },
  airtimePurchase: {
    422:
      'A field broke a rule, or the amount is above the wallet balance ' +
      '(`code: "insufficient_funds"`); nothing is recorded.',
  },
  airtimeBulkPayment: {
    400: 'The multipart/form-data body cannot be read (no boundary, cut short).',
    413: 'The upload is larger than the file limit (5 MiB).',
    415: 'The body is not multipart/form-data.',
    422:
      'No file; a file that cannot be read (`code`: `corrupt_file`, `unsupported_format`, ' +
      '`empty_file`, `missing_column`, `duplicate_column`, `too_many_rows`) under `errors.file`; ' +
      'a bad `batch_id`; rows that break a purchase rule, under `errors["rows.<row>.<field>"]`; ' +
      'or a total above the wallet balance (`code: "insufficient_funds"`). Nothing is recorded ' +
      'or spent.',
  },
  disbursementPay: {
    400:
      'The MSISDN is malformed, its provider is unsupported, or the upstream gateway failed ' +
      '(`code: "upstream_failed"`, wallet untouched); or the body is not valid JSON.',
    422:
      'A field broke a rule, or amount plus charge is above the wallet balance ' +
      '(`code: "insufficient_funds"`).',
  },
};

/** The engine's own settlement call is never rate limited (a limited engine settles nothing). */
const neverRateLimited: ReadonlySet<string> = new Set<EndpointId>(['engineCallback']);

/** Documented on every POST: what the sandbox answers before any route runs. */
const bodyErrors = {
  400: 'The request body is not valid JSON, or holds a `__proto__` or `constructor.prototype` key.',
  413: 'The request body is larger than the 1 MiB limit.',
  415: 'The body is not JSON: send it with `Content-Type: application/json`.',
} as const;

/**
 * An operation's error responses: the ones every operation of its kind can answer plus its own,
 * each with its body schema; only statuses the sandbox answers.
 */
export function errorResponses(
  endpoint: Endpoint,
  components: SchemaComponents,
): Record<string, OpenApiResponse> {
  const common: Record<number, string> = {};
  if (endpoint.method === 'POST') Object.assign(common, bodyErrors);
  if (endpoint.request !== undefined) {
    common[422] = 'A field broke a rule; `errors` names each field and its messages.';
  }
  if (endpoint.auth === 'bearer') {
    common[401] = 'The bearer token is missing, malformed, unknown, revoked or of another product.';
    // Login's account rules apply on every call: a status change stops an issued token.
    if (endpoint.product === 'airtime') {
      common[403] = 'The airtime user (role 2) is not active.';
    } else if (endpoint.product === 'disbursement') {
      common[401] += ' Also when the account is unverified or rejected.';
    }
  }
  if (!neverRateLimited.has(endpoint.id)) {
    common[429] = endpoint.retry === 'money' ? rateLimited + sandboxFull : rateLimited;
  }
  const descriptions: Record<number, string> = {
    ...common,
    ...endpointErrors[endpoint.id as EndpointId | 'airtimeBulkPayment'],
  };
  const responses: Record<string, OpenApiResponse> = {};
  for (const status of Object.keys(descriptions)
    .map(Number)
    .sort((a, b) => a - b)) {
    const schema =
      status === 422
        ? components.ref(validationErrorBodySchema, 'output', 'ValidationErrorBody')
        : components.ref(errorBodySchema, 'output', 'ErrorBody');
    responses[status] = {
      description: descriptions[status]!,
      ...(status === 429 ? { headers: { 'Retry-After': retryAfterHeader } } : {}),
      content: { 'application/json': { schema } },
    };
  }
  return responses;
}

const retryAfterHeader = {
  description:
    'Seconds to wait before trying again. Sent with a rate limit or a login limit; not with ' +
    '`sandbox_full`.',
  required: false,
  schema: { type: 'integer', minimum: 0 },
} as const;
