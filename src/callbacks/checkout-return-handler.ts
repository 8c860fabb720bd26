import { externalReferenceOf, settleCheckoutReturn } from './checkout-return.js';
import { jsonResponse, type ReceiverResponse, validationResponse } from './http.js';
import { announce, asError, type ProcessContext } from './process-entry.js';
import type { ReturnUrls } from './return-urls.js';
import { redirectLocation } from './return-urls.js';
import { pullPriority } from './status-puller.js';

/** `GET <mount>/return`: settles by pulling (never from the query), then 303 or JSON. */
export async function answerCheckoutReturn(
  context: ProcessContext,
  url: URL,
  returnUrls?: ReturnUrls,
): Promise<ReceiverResponse> {
  const { store, emit } = context;
  const externalReference = externalReferenceOf({
    external_reference: url.searchParams.get('external_reference'),
  });
  if (externalReference === undefined) {
    return validationResponse({
      external_reference: ['The external_reference field is required.'],
    });
  }
  let result: Awaited<ReturnType<typeof settleCheckoutReturn>>;
  try {
    result = await settleCheckoutReturn(
      store,
      (reference) => context.puller.pull(reference, pullPriority.browser),
      externalReference,
    );
  } catch (error) {
    // The store is unreachable: the payment is not proven, so "pending" (a 404 without a record).
    result = { outcome: 'not_found', changed: false, error };
    const record = await store.records
      .find({ field: 'externalReference', value: externalReference })
      .catch(() => undefined);
    if (record) result = { outcome: 'pending', record, changed: false, error };
  }
  if (result.error !== undefined) emit('error', { stage: 'return', error: asError(result.error) });
  const { outcome, record } = result;
  if (result.settlement) await announce(context, result.settlement);
  if (outcome === 'not_found') {
    return jsonResponse(404, {
      message: 'No checkout with this external_reference is known here.',
      status: 'not_found',
    });
  }
  const urls = { ...context.options.returnUrls, ...returnUrls };
  const target = urls[outcome === 'review' ? 'pending' : outcome];
  // A return URL that is no URL at all (unchecked, through receive()) gets the JSON answer.
  const href = target && record ? redirectLocation(target, record.merchantReference) : undefined;
  if (href !== undefined) return { status: 303, headers: { location: href }, body: '' };
  return jsonResponse(200, {
    status: outcome,
    paid: outcome === 'paid',
    merchantReference: record?.merchantReference ?? null,
  });
}
