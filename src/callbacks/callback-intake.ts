import { callbackReceivedChannel } from '../observability/channels.js';
import { maxClaimedReferenceLength, maxInboxUrlLength } from '../references/inbox/input-rules.js';
import type { CallbackClaim } from '../references/inbox/types.js';
import type { TransactionRecord } from '../references/record.js';
import { openStatuses } from '../references/transitions.js';
import type { ReferenceStore } from '../references/types.js';
import { sameAmount } from '../schemas/amount.js';
import { findRecord } from './find-record.js';
import {
  headerValue,
  jsonResponse,
  type ReceivedRequest,
  type ReceiverResponse,
  redactedHeaders,
  tooLargeResponse,
  validationResponse,
} from './http.js';
import { type ParsedCallback, parseCallback } from './parse-callback.js';
import { asError, type ProcessContext } from './process-entry.js';

/** How far ahead of orphans a known record's callback is put in the inbox's due order. */
const knownRecordHeadStartMs = 3_600_000;

/** A POSTed callback: checked, parsed, stored raw in the inbox, 200 — nothing slow runs first. */
export async function receivePost(
  context: ProcessContext,
  request: ReceivedRequest,
  url: URL,
): Promise<ReceiverResponse> {
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    return jsonResponse(415, {
      message: 'Callbacks must be sent as application/json.',
    });
  }
  if (sizeOf(request.body) > context.options.maxBodyBytes) {
    return tooLargeResponse('body', context.options.maxBodyBytes);
  }
  return accept(context, request, url, request.body);
}

export async function receiveGet(
  context: ProcessContext,
  request: ReceivedRequest,
  url: URL,
): Promise<ReceiverResponse> {
  if (Buffer.byteLength(url.search) > context.options.maxBodyBytes) {
    return tooLargeResponse('query', context.options.maxBodyBytes);
  }
  const payload = payloadFromQuery(url.searchParams);
  if (payload === undefined) {
    return validationResponse({
      payload: [
        'The payload field is required: the callback JSON, URL-encoded, or its fields (status, data[amount], ...).',
      ],
    });
  }
  return accept(context, request, url, payload);
}

async function accept(
  context: ProcessContext,
  request: ReceivedRequest,
  url: URL,
  body: unknown,
): Promise<ReceiverResponse> {
  // The inbox keeps the request target as received; a longer one could never be stored.
  if (request.url.length > maxInboxUrlLength) {
    return jsonResponse(414, {
      message: `The callback URL is longer than ${maxInboxUrlLength} characters.`,
    });
  }
  const hint = url.searchParams.get('pesakit_ref');
  const parsed = parseCallback(
    body,
    hint && hint.length <= maxClaimedReferenceLength ? hint : null,
  );
  if (!parsed.ok) return validationResponse(parsed.errors);
  const { callback } = parsed;
  const tooLong = claimTooLong(callback);
  if (tooLong) return validationResponse(tooLong);
  const receivedAt = context.now();
  const { store } = context;
  // The record first: the `pesakit_ref` pesakit put in the callback URL makes it one
  // primary-key read on the path the platform waits on; without it, the platform references are
  // looked up. A failed lookup only costs the callback its standing as a known record's.
  const { merchantReferenceHint } = callback.claim;
  const known = await (merchantReferenceHint
    ? store.records.get(merchantReferenceHint)
    : findRecord(store, callback.claim).then((match) => match?.record)
  ).catch(() => undefined);
  const refusal = await overBudget(context, request, callback, known, receivedAt.getTime());
  if (refusal) return refusal;
  // A known record's callback is due an hour early, so it is claimed before the orphans (a
  // forger's) however many wait. The head start is the record's, once a window: forgeries
  // naming a real record do not all go first.
  const headStart = known !== undefined && context.turns.takeHeadStart(known.merchantReference);
  let appended: Awaited<ReturnType<ReferenceStore['inbox']['append']>>;
  try {
    appended = await context.store.inbox.append({
      dedupKey: callback.dedupKey,
      method: request.method.toUpperCase(),
      url: request.url,
      headers: redactedHeaders(request.headers),
      body: callback.text,
      claim: callback.claim,
      receivedAt,
      ...(headStart && { dueAt: new Date(receivedAt.getTime() - knownRecordHeadStartMs) }),
    });
  } catch (error) {
    context.emit('error', { stage: 'receive', error: asError(error) });
    return jsonResponse(
      503,
      { message: 'The callback could not be stored; please send it again.' },
      { 'retry-after': '5' },
    );
  }
  const { entry, duplicate } = appended;
  if (callbackReceivedChannel.hasSubscribers) {
    callbackReceivedChannel.publish(Object.freeze({ entryId: entry.id, duplicate }));
  }
  if (duplicate) {
    context.emit('duplicate', {
      entryId: entry.id,
      claim: entry.claim,
      duplicates: entry.duplicates,
    });
  } else {
    context.emit('received', { entryId: entry.id, claim: entry.claim });
    context.nudge();
  }
  return jsonResponse(200, { received: true, duplicate });
}

/**
 * The platform is never throttled: a callback naming an open record and agreeing with it is
 * capped per record (a handful of distinct ones an hour), never by its address. Everything else
 * (orphans, claims at odds with their record) has a budget per source and per process, and waits
 * while the inbox's backlog is full. A 503 with Retry-After, never a 4xx, which would not be sent
 * again; nothing is stored.
 */
async function overBudget(
  context: ProcessContext,
  request: ReceivedRequest,
  callback: ParsedCallback,
  known: TransactionRecord | undefined,
  now: number,
): Promise<ReceiverResponse | undefined> {
  if (known !== undefined && isGenuine(known, callback.claim)) {
    if (context.turns.admit(known.merchantReference, callback.dedupKey)) return undefined;
    return busy('Too many distinct callbacks for this transaction this hour', 60);
  }
  const { budget, backlog } = context;
  if (budget === undefined) return undefined;
  const bytes = Buffer.byteLength(callback.text) + Buffer.byteLength(request.url);
  const wait = request.source ? budget.take(request.source, bytes, now) : 0;
  if (wait > 0) return busy('Too many callbacks from this address', wait);
  if (backlog && (await backlog.gauge.unfinished(now)) >= backlog.max) {
    return busy('The callback inbox is full', 5);
  }
  return undefined;
}

function busy(reason: string, retryAfterSeconds: number): ReceiverResponse {
  return jsonResponse(
    503,
    { message: `${reason}; please send it again later. Nothing was stored.` },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** Open, and agreeing with the record: the same amount, and no reference another than its own. */
function isGenuine(record: TransactionRecord, claim: CallbackClaim): boolean {
  const same = (ours: string | null, claimed: string | null) =>
    ours === null || claimed === null || ours === claimed;
  return (
    openStatuses.includes(record.status) &&
    sameAmount(record.amount, claim.amount) &&
    same(record.controlNumber, claim.controlNumber) &&
    same(record.paymentReference, claim.paymentReference) &&
    same(record.externalReference, claim.externalReference)
  );
}

function sizeOf(body: unknown): number {
  if (body === undefined || body === null) return 0;
  if (Buffer.isBuffer(body)) return body.length;
  if (typeof body === 'string') return Buffer.byteLength(body);
  try {
    return Buffer.byteLength(JSON.stringify(body) ?? '');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Checked before storing: the store's refusal would be a 503 retried forever, so a 4xx. */
function claimTooLong(callback: ParsedCallback): Record<string, string[]> | undefined {
  const reference = callback.claim.paymentReference;
  // PostgreSQL text cannot hold a NUL: refused forever, so a 422 rather than a 503.
  if (reference.includes('\u0000')) {
    return {
      'data.paymentReference': ['The data.paymentReference must not contain a NUL character.'],
    };
  }
  if (reference.length <= maxClaimedReferenceLength) return undefined;
  return {
    'data.paymentReference': [
      `The data.paymentReference may not be greater than ${maxClaimedReferenceLength} characters.`,
    ],
  };
}

/** A GET callback's payload: `payload=<JSON>`, or flat fields (`data[amount]=…`, `data.amount=…`). */
export function payloadFromQuery(
  params: URLSearchParams,
): string | Record<string, unknown> | undefined {
  const json = params.get('payload');
  if (json !== null) return json;
  const payload: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  let fields = 0;
  for (const [key, value] of params) {
    if (key === 'pesakit_ref' || key === 'data') continue;
    fields += 1;
    const nested = /^data(?:\[(\w+)\]|\.(\w+))$/.exec(key);
    const field = nested ? (nested[1] ?? nested[2]) : undefined;
    if (field !== undefined) {
      data[field] = field === 'amount' ? numeric(value) : value;
      payload['data'] = data;
    } else if (key === 'status') {
      payload[key] = boolean(value);
    } else {
      payload[key] = value;
    }
  }
  return fields === 0 ? undefined : payload;
}

/** A number written as JSON writes one (`1000`, `99.5`, `1e3`): the GET form reads as the POST. */
function numeric(value: string): number | string {
  return /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value) ? Number(value) : value;
}

function boolean(value: string): boolean | string {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}
