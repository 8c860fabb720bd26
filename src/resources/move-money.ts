import { type EndpointId, endpoints, type RequestOf, type ResponseOf } from '../core/endpoints.js';
import {
  type LastResponse,
  type WithLastResponse,
  withLastResponse,
} from '../core/last-response.js';
import type { RequestOptions } from '../core/transport.js';
import { AmbiguousOutcomeError } from '../errors/ambiguous-outcome-error.js';
import { RequestAbortedError } from '../errors/request-aborted-error.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import type { Flow, References, TransactionRecord } from '../references/index.js';
import type { WalletReservation } from '../references/wallet-float.js';
import { AnswerContradictsRequestError } from './answer-contradicts-request-error.js';
import { withMerchantReferenceInCallbackUrl } from './callback-url.js';
import type { ClientContext } from './client-context.js';
import { merchantReferenceProblem } from './merchant-reference.js';
import { checkedOutcome, type Outcome, recordAnswer, recordFailure } from './write-ahead.js';

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
  await context.ledger.open({
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
      await recordFailure(context.ledger, merchantReference, error);
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

  const { outcome, contradicted } = checkedOutcome(
    movement.echoes?.(movement.body, response) ?? {},
    () => movement.outcome(response),
  );
  let record: TransactionRecord;
  try {
    record = await recordAnswer(context.ledger, merchantReference, {
      references: movement.references(response),
      outcome,
      payload: response,
    });
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
  if (contradicted.length > 0) {
    // Neither paid nor lost: thrown, as `unknown` is, so that no caller takes it for paid.
    const error = new AnswerContradictsRequestError(record, contradicted);
    transport.reportFailure(checked, error);
    throw error;
  }
  return withLastResponse({ ...response, merchantReference, record }, response.lastResponse);
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
