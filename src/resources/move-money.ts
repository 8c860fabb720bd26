import type { z } from 'zod';
import { type EndpointId, endpoints, type RequestOf, type ResponseOf } from '../core/endpoints.js';
import {
  AmbiguousOutcomeError,
  isAmbiguousOutcomeError,
} from '../errors/ambiguous-outcome-error.js';
import { isApiError } from '../errors/api-error.js';
import { isConnectionError } from '../errors/connection-error.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { isResponseValidationError } from '../errors/response-validation-error.js';
import { isServerError } from '../errors/server-error.js';
import type {
  Flow,
  References,
  TransactionRecord,
  TransactionStatus,
} from '../references/index.js';
import { fieldErrorsFrom } from '../schemas/error-body.js';
import type { ClientContext } from './client-context.js';
import { merchantReferencePattern } from './merchant-reference.js';

/** Options every money-moving call accepts. */
export interface MoneyMovementOptions {
  /**
   * Your own reference for this payment, kept apart from the platform's. Generated (a
   * sortable ULID) when omitted. Must be unique in the store.
   */
  merchantReference?: string;
  /** Small key/values stored with the record (order id, customer id …). */
  metadata?: Record<string, string>;
  /** Abort the request. An abort after sending makes the outcome ambiguous, like a timeout. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** Every money-moving result carries the merchant reference and the stored record. */
export type WithMerchantReference<T> = T & {
  merchantReference: string;
  /** The record as stored after the call: references attached, status moved. */
  record: TransactionRecord;
};

interface Movement<K extends EndpointId> {
  endpoint: K;
  body: RequestOf<K>;
  flow: Flow;
  amount: number;
  msisdn?: string | undefined;
  /** The references the answer carries. */
  references: (response: ResponseOf<K>) => References;
  /** What the answer says about the payment's state. */
  outcome: (response: ResponseOf<K>) => { status: TransactionStatus; reason?: string };
}

/**
 * The one path by which money moves (DESIGN decision 3): validate, write the intent, send
 * once, then attach what came back. The intent is stored *before* sending so that a crash or a
 * lost answer leaves a record the reconciler can find; an unknown outcome stays `unknown`,
 * never `failed`.
 */
export async function moveMoney<K extends EndpointId>(
  context: ClientContext,
  movement: Movement<K>,
  options: MoneyMovementOptions = {},
): Promise<WithMerchantReference<ResponseOf<K>>> {
  const endpoint = endpoints[movement.endpoint];
  const body = validateBody(movement.endpoint, endpoint.request, movement.body);
  const merchantReference = options.merchantReference ?? context.newMerchantReference();
  if (!merchantReferencePattern.test(merchantReference)) {
    throw new RequestValidationError(movement.endpoint, {
      merchantReference: ['The merchantReference must be 1–64 letters, digits, or _ - : .'],
    });
  }

  await context.store.createIntent({
    merchantReference,
    product: endpoint.product,
    flow: movement.flow,
    amount: movement.amount,
    ...(movement.msisdn === undefined ? {} : { msisdn: movement.msisdn }),
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
  });

  let response: ResponseOf<K>;
  try {
    response = (await context.transport.request(movement.endpoint, {
      body,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    } as never)) as ResponseOf<K>;
  } catch (error) {
    try {
      await recordFailure(context, merchantReference, error);
    } catch (storeError) {
      // The send's outcome matters more than the bookkeeping: a caller who got a store error
      // instead of AmbiguousOutcomeError might resend and pay twice. The record stays
      // `initiating`, an open status the reconciler pulls like any other.
      process.emitWarning(
        `pesakit: could not record the outcome of ${merchantReference}: ${String(storeError)}`,
        { code: 'PESAKIT_STORE_WRITE_FAILED' },
      );
    }
    // The transport could not know the merchant reference; the caller needs it to reconcile.
    if (isAmbiguousOutcomeError(error)) {
      throw new AmbiguousOutcomeError(error, merchantReference, { cause: error.cause ?? error });
    }
    throw error;
  }

  await context.store.attachReferences(merchantReference, movement.references(response));
  const { status, reason } = movement.outcome(response);
  const { record } = await context.store.transition(merchantReference, status, {
    payload: response,
    ...(reason === undefined ? {} : { reason }),
  });
  return { ...response, merchantReference, record };
}

function validateBody(id: string, schema: z.ZodType | undefined, body: unknown): unknown {
  if (!schema) return body;
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new RequestValidationError(id, fieldErrorsFrom(parsed.error, body));
  return body;
}

/**
 * Classifies a failed send. Only a definite answer is `failed`: a 4xx the platform gave, or a
 * connection that never opened. Anything that may have reached the platform — a lost answer, a
 * 5xx mid-processing, a 2xx we could not read — is `unknown`, for the reconciler.
 */
async function recordFailure(context: ClientContext, merchantReference: string, error: unknown) {
  if (isAmbiguousOutcomeError(error)) {
    await context.store.transition(merchantReference, 'unknown', {
      reason: 'no response: outcome unknown',
    });
  } else if (isResponseValidationError(error)) {
    await context.store.transition(merchantReference, 'unknown', {
      payload: error.body,
      reason: 'unreadable success response',
    });
  } else if (isServerError(error)) {
    await context.store.transition(merchantReference, 'unknown', {
      payload: error.body,
      reason: `platform error ${error.status}`,
    });
  } else if (isApiError(error)) {
    await context.store.transition(merchantReference, 'failed', {
      payload: error.body,
      reason: error.platformMessage ?? `rejected with ${error.status}`,
    });
  } else if (isConnectionError(error)) {
    await context.store.transition(merchantReference, 'failed', {
      reason: 'not sent: connection failed',
    });
  } else {
    // An error we cannot classify (a bug, an abort before sending) may still have sent bytes.
    await context.store.transition(merchantReference, 'unknown', {
      reason: 'unclassified failure',
    });
  }
}
