import { type EndpointId, endpoints, type RequestOf, type ResponseOf } from '../core/endpoints.js';
import {
  type LastResponse,
  type WithLastResponse,
  withLastResponse,
} from '../core/last-response.js';
import type { RequestOptions } from '../core/transport.js';
import {
  AmbiguousOutcomeError,
  isAmbiguousOutcomeError,
} from '../errors/ambiguous-outcome-error.js';
import { isApiError } from '../errors/api-error.js';
import { isConnectionError } from '../errors/connection-error.js';
import { isInvalidTransitionError } from '../errors/invalid-transition-error.js';
import { isRateLimitError } from '../errors/rate-limit-error.js';
import { isRequestAbortedError, RequestAbortedError } from '../errors/request-aborted-error.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { isResponseValidationError } from '../errors/response-validation-error.js';
import { isServerError } from '../errors/server-error.js';
import type {
  Flow,
  References,
  TransactionRecord,
  TransactionStatus,
} from '../references/index.js';
import { contradictions, contradictionVerdict, type ReviewVerdict } from '../references/review.js';
import type { WalletReservation } from '../references/wallet-float.js';
import { AnswerContradictsRequestError } from './answer-contradicts-request-error.js';
import { withMerchantReferenceInCallbackUrl } from './callback-url.js';
import type { ClientContext } from './client-context.js';
import { merchantReferenceProblem } from './merchant-reference.js';
import { reasonFromPlatform } from './stored-reason.js';

/** Options every money-moving call accepts. */
export interface MoneyMovementOptions {
  /** Your own reference for this payment, unique in the store; a ULID when omitted. */
  merchantReference?: string;
  /** Small key/values stored with the record (order id, customer id …). */
  metadata?: Record<string, string>;
  /** Aborts the request: before sending, a RequestAbortedError; after, an ambiguous outcome. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** Every money-moving result carries the merchant reference and the stored record. */
export type WithMerchantReference<T> = T & {
  merchantReference: string;
  /** The record as stored after the call: references attached, status moved. */
  record: TransactionRecord;
  /** The HTTP response: status, `x-request-id`, redacted headers (not enumerable). */
  readonly lastResponse: LastResponse;
};

interface Movement<K extends EndpointId> {
  endpoint: K;
  body: RequestOf<K>;
  flow: Flow;
  /** What the intent stores from the body; read only once the body has been checked. */
  intent: (body: RequestOf<K>) => {
    amount: number;
    msisdn?: string | undefined;
    /** Kept for matching the answer later; the caller's own metadata wins on a shared key. */
    metadata?: Record<string, string>;
  };
  /** The body has a `callback_url` that gets the merchant reference as `pesakit_ref`. */
  tagsCallbackUrl?: boolean;
  /** The references the answer carries. */
  references: (response: ResponseOf<K>) => References;
  /** What the answer says about the payment's state. */
  outcome: (response: ResponseOf<K>) => Outcome;
  /** The fields the answer echoes, `[asked, answered]`: any difference goes to a person. */
  echoes?: (body: RequestOf<K>, response: ResponseOf<K>) => Record<string, [unknown, unknown]>;
  /** A bulk payout row's float, held in the intent's own write. */
  reservation?: WalletReservation | undefined;
}

type Outcome = { status: TransactionStatus; reason?: string; review?: ReviewVerdict };
/**
 * The one path by which money moves: check all that can be checked unsent and get a token, then
 * store the intent (so a crash or lost answer leaves a record to reconcile), send once, and
 * record what came back. A failure before the intent stores nothing.
 */
export async function moveMoney<K extends EndpointId>(
  context: ClientContext,
  movement: Movement<K>,
  given?: MoneyMovementOptions,
): Promise<WithMerchantReference<ResponseOf<K>>> {
  // `null` from a JavaScript caller means no options, as `undefined` does.
  const options: MoneyMovementOptions = given ?? {};
  const { transport } = context;
  const endpoint = endpoints[movement.endpoint];
  misplacedOptions(movement.endpoint, movement.body);
  const merchantReference = options.merchantReference ?? context.newMerchantReference();
  const referenceProblem = merchantReferenceProblem(merchantReference);
  if (referenceProblem !== undefined) {
    throw new RequestValidationError(movement.endpoint, { merchantReference: [referenceProblem] });
  }
  const body = movement.tagsCallbackUrl
    ? withMerchantReferenceInCallbackUrl(movement.body, merchantReference)
    : movement.body;
  const request = {
    body,
    merchantReference,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  } as RequestOptions<K>;
  const checked = transport.prepare(movement.endpoint, request);
  // A wrong password is found out here, before the intent exists.
  if (endpoint.auth === 'bearer') {
    await transport.authenticate(endpoint.product, options.signal);
    if (options.signal?.aborted) {
      throw new RequestAbortedError(
        { method: checked.method, path: checked.path },
        options.signal.reason,
      );
    }
  }

  const { amount, msisdn, metadata: kept } = movement.intent(movement.body);
  const metadata = kept || options.metadata ? { ...kept, ...options.metadata } : undefined;
  const { reservation } = movement;
  // Only a bearer route ties the transaction to the login: the others are any account's.
  const account = context.account(endpoint.product);
  await context.store.createIntent({
    merchantReference,
    product: endpoint.product,
    flow: movement.flow,
    amount,
    ...(msisdn === undefined ? {} : { msisdn }),
    ...(metadata === undefined ? {} : { metadata }),
    account: endpoint.auth === 'bearer' ? account : { ...account, login: null },
    ...(reservation === undefined ? {} : { reservation }),
  });

  let response: WithLastResponse<ResponseOf<K>>;
  try {
    response = await transport.sendChecked(checked);
  } catch (error) {
    try {
      await recordFailure(context, merchantReference, error);
    } catch (storeError) {
      // A store error in place of the send's error could invite a resend that pays twice; the
      // record stays `initiating`, which the reconciler pulls.
      process.emitWarning(
        `pesakit: could not record the outcome of ${merchantReference}: ${String(storeError)}`,
        { code: 'PESAKIT_STORE_WRITE_FAILED' },
      );
    }
    throw error;
  }

  const contradicted = contradictions(movement.echoes?.(movement.body, response) ?? {});
  const review = contradicted.length > 0 ? contradictionVerdict(contradicted) : undefined;
  let record: TransactionRecord;
  try {
    record = await recordAnswer(
      context,
      merchantReference,
      movement.references(response),
      review
        ? { status: 'needs_review', reason: review.message, review }
        : movement.outcome(response),
      response,
    );
  } catch (storeError) {
    // Money may have moved: a raw store error would invite a resend. The record stays
    // `initiating`, which the reconciler pulls once it is stale.
    const ambiguous = new AmbiguousOutcomeError(checked, merchantReference, {
      cause: storeError,
      answer: response,
      reason: `was answered by the platform, but recording its answer failed (${String(storeError)})`,
    });
    transport.reportFailure(checked, ambiguous);
    throw ambiguous;
  }
  if (review) {
    // Neither paid nor lost: thrown, as `unknown` is, so that no caller takes it for paid.
    const error = new AnswerContradictsRequestError(record, contradicted);
    transport.reportFailure(checked, error);
    throw error;
  }
  return withLastResponse({ ...response, merchantReference, record }, response.lastResponse);
}

/** Records the answer in one write; a record a callback or the reconciler settled first is kept. */
async function recordAnswer(
  context: ClientContext,
  merchantReference: string,
  references: References,
  { status, ...details }: Outcome,
  response: unknown,
): Promise<TransactionRecord> {
  try {
    const { record } = await context.store.attachAndTransition(
      merchantReference,
      references,
      status,
      { payload: response, ...details },
    );
    return record;
  } catch (error) {
    const current = await settledElsewhere(context, merchantReference, error);
    if (current) return current;
    throw error;
  }
}

/**
 * The record another path (a callback verified by pull) moved on while this call was out, when
 * `error` is the refusal of our own move: theirs stands, and it is no store failure.
 */
async function settledElsewhere(
  context: ClientContext,
  merchantReference: string,
  error: unknown,
): Promise<TransactionRecord | undefined> {
  if (!isInvalidTransitionError(error)) return undefined;
  const current = await context.store.get(merchantReference);
  return current && current.status !== 'initiating' ? current : undefined;
}

const optionNames = ['merchantReference', 'metadata', 'timeoutMs', 'signal'] as const;

/** Refuses a call option in the request body, which the schema would drop (a lost reference). */
function misplacedOptions(endpoint: EndpointId, body: unknown): void {
  if (typeof body !== 'object' || body === null) return;
  const errors: Record<string, string[]> = {};
  for (const name of optionNames) {
    if (Object.hasOwn(body, name)) {
      errors[name] = [
        `The ${name} is a call option: pass it in the second argument, e.g. pay(request, { ${name} }).`,
      ];
    }
  }
  if (Object.keys(errors).length > 0) throw new RequestValidationError(endpoint, errors);
}

/** Records a failed send: `failed` only for a definite answer, else `unknown` to reconcile. */
async function recordFailure(context: ClientContext, merchantReference: string, error: unknown) {
  const [to, reason] = failureOutcome(error);
  const payload = isApiError(error) || isResponseValidationError(error) ? error.body : undefined;
  const redirect =
    isAmbiguousOutcomeError(error) && isApiError(error.cause) ? error.cause : undefined;
  try {
    await context.store.transition(merchantReference, to, {
      ...(payload === undefined ? {} : { payload }),
      ...(redirect ? { payload: redirect.body } : {}),
      reason: redirect ? `redirected with ${redirect.status}: outcome unknown` : reason,
    });
  } catch (storeError) {
    if (!(await settledElsewhere(context, merchantReference, storeError))) throw storeError;
  }
}

function failureOutcome(error: unknown): [status: 'unknown' | 'failed', reason: string] {
  if (isAmbiguousOutcomeError(error)) return ['unknown', 'no response: outcome unknown'];
  if (isResponseValidationError(error)) return ['unknown', 'unreadable success response'];
  if (isServerError(error)) return ['unknown', `platform error ${error.status}`];
  if (isRateLimitError(error)) return ['failed', rateLimitedReason(error.retryAfterMs)];
  if (isApiError(error)) {
    const message = error.platformMessage;
    return [
      'failed',
      message === undefined ? `rejected with ${error.status}` : reasonFromPlatform(message),
    ];
  }
  if (isConnectionError(error)) return ['failed', 'not sent: connection failed'];
  // The transport throws this for a money-moving call only when nothing was sent.
  if (isRequestAbortedError(error)) return ['failed', 'not sent: aborted before sending'];
  // An error we cannot classify (a bug) may still have sent bytes.
  return ['unknown', 'unclassified failure'];
}

/** A 429 is a definite refusal; `rate_limited` lets `onFailed` tell it from a declined payment. */
function rateLimitedReason(retryAfterMs: number | undefined): string {
  const wait =
    retryAfterMs === undefined ? 'after a pause' : `after ${Math.ceil(retryAfterMs / 1000)} s`;
  return `rate_limited: the platform refused the request before processing it (429); nothing moved. Try again ${wait} with a new merchant reference.`;
}
