import type { z } from 'zod';
import * as s from '../schemas/index.js';
import type { Product } from '../schemas/product.js';

export type Environment = 'sandbox' | 'production';

/** `bearer`: login token; `payment-token`: checkout token in the body; `api-key`: `x-api-key`. */
export type AuthScheme = 'none' | 'bearer' | 'payment-token' | 'api-key' | 'engine';

/** `safe`: retried on transient failures; `money`: never (no idempotency key); `once`: once. */
export type RetryClass = 'safe' | 'money' | 'once';

export interface Endpoint<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly id: string;
  readonly product: Product;
  readonly method: 'GET' | 'POST';
  /** Path under the product's sandbox prefix; `{name}` marks a path parameter. */
  readonly sandboxPath: string;
  /** Path on the production host (spec § Versioning). */
  readonly productionPath: string;
  readonly auth: AuthScheme;
  readonly retry: RetryClass;
  readonly request: Req | undefined;
  readonly response: Res;
  readonly summary: string;
}

/** One row of the table; `productionPath` defaults to the sandbox path under `/api`. */
function endpoint<Req extends z.ZodType | undefined, Res extends z.ZodType>(
  id: string,
  product: Product,
  method: 'GET' | 'POST',
  sandboxPath: string,
  rest: Omit<Endpoint, 'id' | 'product' | 'method' | 'sandboxPath' | 'productionPath'> & {
    productionPath?: string;
    request: Req;
    response: Res;
  },
) {
  const productionPath = rest.productionPath ?? `/api${sandboxPath}`;
  return { id, product, method, sandboxPath, ...rest, productionPath } as const;
}

/** The sandbox prefix of each product (spec § What the service does). */
export const sandboxPrefixes: Readonly<Record<Product, string>> = {
  collection: '/api/sandbox',
  airtime: '/api/sandbox/airtime',
  disbursement: '/api/sandbox/disbursement',
};

/** Every endpoint; production paths from the spec's Versioning table, else `/api/...`. */
export const endpoints = {
  collectionLogin: endpoint('collectionLogin', 'collection', 'POST', '/login', {
    auth: 'none',
    retry: 'safe',
    request: s.loginRequestSchema,
    response: s.collectionLoginResponseSchema,
    summary: 'Issues a bearer token for the collection API.',
  }),
  collectionLogout: endpoint('collectionLogout', 'collection', 'POST', '/logout', {
    auth: 'bearer',
    retry: 'once',
    request: undefined,
    response: s.messageResponseSchema,
    summary: 'Revokes the current collection token.',
  }),
  initiateMno: endpoint('initiateMno', 'collection', 'POST', '/initiate-payment/mno/', {
    auth: 'bearer',
    retry: 'money',
    request: s.mnoCollectionRequestSchema,
    response: s.collectionInitiationResponseSchema,
    summary: 'Creates a mobile (MNO push) collection request.',
  }),
  initiateBank: endpoint('initiateBank', 'collection', 'POST', '/initiate-payment/bank/', {
    auth: 'bearer',
    retry: 'money',
    request: s.bankCollectionRequestSchema,
    response: s.collectionInitiationResponseSchema,
    summary: 'Creates a bank collection request (the customer pays against the control number).',
  }),
  collectionStatus: endpoint('collectionStatus', 'collection', 'POST', '/transaction/status', {
    auth: 'bearer',
    retry: 'safe',
    request: s.collectionStatusRequestSchema,
    response: s.collectionStatusResponseSchema,
    summary: 'Looks up a transaction by control number or engine reference.',
  }),
  initiateSecure: endpoint('initiateSecure', 'collection', 'POST', '/initiate-secure-payment', {
    auth: 'none',
    retry: 'money',
    request: s.secureCheckoutRequestSchema,
    response: s.secureCheckoutResponseSchema,
    summary: 'Creates a hosted checkout and returns its payment_url.',
  }),
  checkoutMno: endpoint('checkoutMno', 'collection', 'POST', '/mno/', {
    auth: 'payment-token',
    retry: 'money',
    request: s.checkoutMnoRequestSchema,
    response: s.checkoutMnoResponseSchema,
    summary: 'Hosted checkout: pays by phone with the payment token.',
  }),
  portalSession: endpoint('portalSession', 'collection', 'POST', '/portal-session', {
    auth: 'payment-token',
    retry: 'once',
    request: s.portalSessionRequestSchema,
    response: s.portalSessionResponseSchema,
    summary: 'Hosted checkout: opens a card session with the payment token.',
  }),
  engineCallback: endpoint('engineCallback', 'collection', 'POST', '/callback', {
    auth: 'engine',
    retry: 'once',
    request: s.engineCallbackSchema,
    response: s.engineCallbackAckSchema,
    summary: 'The engine settlement callback (also accepted as GET with query parameters).',
  }),
  payMobile: endpoint('payMobile', 'collection', 'POST', '/pay_mobile', {
    auth: 'api-key',
    retry: 'money',
    request: s.payMobileRequestSchema,
    response: s.collectionInitiationResponseSchema,
    summary: 'Engine-compatible pay_mobile collection; the API key is optional.',
  }),
  providerTest: endpoint('providerTest', 'collection', 'POST', '/merchant/test-{provider}', {
    auth: 'none',
    retry: 'safe',
    request: undefined,
    response: s.providerTestResponseSchema,
    summary: 'A sample signed token and hash for integration tests of a payment provider.',
  }),
  airtimeRegister: endpoint('airtimeRegister', 'airtime', 'POST', '/register', {
    auth: 'none',
    retry: 'once',
    request: s.registerRequestSchema,
    response: s.airtimeRegisterResponseSchema,
    summary: 'Creates an airtime merchant account (status pending until activated).',
  }),
  airtimeLogin: endpoint('airtimeLogin', 'airtime', 'POST', '/login', {
    auth: 'none',
    retry: 'safe',
    request: s.loginRequestSchema,
    response: s.airtimeLoginResponseSchema,
    summary: 'Authenticates an airtime account and returns a bearer token.',
  }),
  airtimePurchase: endpoint('airtimePurchase', 'airtime', 'POST', '/customer/payments', {
    productionPath: '/customer/payments',
    auth: 'bearer',
    retry: 'money',
    request: s.airtimePurchaseRequestSchema,
    response: s.airtimePurchaseResponseSchema,
    summary: 'Sends airtime to a subscriber from the wallet balance.',
  }),
  airtimeRecharge: endpoint('airtimeRecharge', 'airtime', 'POST', '/customer/balancerecharge', {
    productionPath: '/customer/balancerecharge',
    auth: 'bearer',
    retry: 'money',
    request: s.rechargeRequestSchema,
    response: s.rechargeResponseSchema,
    summary: 'Starts a wallet top-up; the answer carries the controlNumber to pay.',
  }),
  airtimeRechargeCallback: endpoint('airtimeRechargeCallback', 'airtime', 'POST', '/callbackUrl', {
    auth: 'none',
    retry: 'once',
    request: s.rechargeCallbackSchema,
    response: s.rechargeCallbackResponseSchema,
    summary: 'Confirms (or fails) a recharge by controlNumber.',
  }),
  airtimeUser: endpoint('airtimeUser', 'airtime', 'GET', '/user', {
    auth: 'bearer',
    retry: 'safe',
    request: undefined,
    response: s.airtimeUserResponseSchema,
    summary: 'The authenticated airtime user with the wallet balance.',
  }),
  disbursementRegister: endpoint('disbursementRegister', 'disbursement', 'POST', '/register', {
    auth: 'none',
    retry: 'once',
    request: s.registerRequestSchema,
    response: s.disbursementRegisterResponseSchema,
    summary: 'Creates a disbursement account (status unverified until verified).',
  }),
  disbursementLogin: endpoint('disbursementLogin', 'disbursement', 'POST', '/login', {
    auth: 'none',
    retry: 'safe',
    request: s.loginRequestSchema,
    response: s.disbursementLoginResponseSchema,
    summary: 'Authenticates; returns user, wallet and token.',
  }),
  disbursementLogout: endpoint('disbursementLogout', 'disbursement', 'POST', '/logout', {
    auth: 'bearer',
    retry: 'once',
    request: undefined,
    response: s.messageResponseSchema,
    summary: 'Revokes the current disbursement token.',
  }),
  disbursementPay: endpoint('disbursementPay', 'disbursement', 'POST', '/payment', {
    auth: 'bearer',
    retry: 'money',
    request: s.disbursementRequestSchema,
    response: s.disbursementResponseSchema,
    summary: 'Creates a payout and deducts amount plus charge from the wallet.',
  }),
  disbursementPayments: endpoint('disbursementPayments', 'disbursement', 'POST', '/getPayments', {
    auth: 'bearer',
    retry: 'safe',
    request: s.pageRequestSchema,
    response: s.disbursementHistoryResponseSchema,
    summary: "Lists the user's payouts, latest first (Laravel paginator).",
  }),
  disbursementUser: endpoint('disbursementUser', 'disbursement', 'GET', '/user', {
    auth: 'bearer',
    retry: 'safe',
    request: undefined,
    response: s.disbursementUserResponseSchema,
    summary: 'The authenticated disbursement user with the wallet balance.',
  }),
} as const;

export type EndpointId = keyof typeof endpoints;
/** The ids of the multipart routes `Transport.upload` sends (outside the JSON table). */
export type UploadEndpointId = 'airtimeBulkPayment';
export type EndpointOf<K extends EndpointId> = (typeof endpoints)[K];
export type RequestOf<K extends EndpointId> = EndpointOf<K>['request'] extends z.ZodType
  ? z.input<EndpointOf<K>['request']>
  : undefined;
export type ResponseOf<K extends EndpointId> = z.output<EndpointOf<K>['response']>;

/** The login endpoint of each product, used by the transport to log in lazily. */
export const loginEndpoints = {
  collection: 'collectionLogin',
  airtime: 'airtimeLogin',
  disbursement: 'disbursementLogin',
} as const satisfies Record<Product, EndpointId>;
