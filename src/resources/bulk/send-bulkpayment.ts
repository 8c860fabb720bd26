import { isAmbiguousOutcomeError } from '../../errors/ambiguous-outcome-error.js';
import { isApiError } from '../../errors/api-error.js';
import { isConnectionError } from '../../errors/connection-error.js';
import { isServerError } from '../../errors/server-error.js';
import { contradictions, contradictionVerdict } from '../../references/review.js';
import type { AirtimeBulkResponse } from '../../schemas/airtime-bulk.js';
import { writeSheet } from '../../spreadsheets/index.js';
import type { ClientContext } from '../client-context.js';
import { reasonFromPlatform } from '../stored-reason.js';
import { rowReference } from './batch-id.js';
import type { BulkRow } from './bulk-product.js';
import { airtimeBulkPaymentEndpoint } from './bulkpayment-endpoint.js';
import { rowFields, rowMetadata } from './row-outcome.js';
import type { BulkRowOutcome } from './types.js';

export interface SendBulkPaymentInput {
  context: ClientContext;
  batchId: string;
  rows: readonly BulkRow[];
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  onRow: (result: BulkRowOutcome) => void;
}

type AnswerRow = AirtimeBulkResponse['rows'][number];

/**
 * Sends the rows left in one CSV upload to the bulkpayment route, after writing every intent;
 * answer rows match ours by position. No answer leaves every row `unknown`; a 4xx, `failed`.
 */
export async function sendBulkPayment(input: SendBulkPaymentInput): Promise<void> {
  const { context, batchId, rows } = input;
  // A wrong password is found out before any intent is written.
  await context.transport.authenticate('airtime', input.signal);
  for (const row of rows) {
    await context.store.createIntent({
      merchantReference: rowReference('airtime', batchId, row.row),
      product: 'airtime',
      flow: 'airtime_purchase',
      amount: row.amount,
      msisdn: row.msisdn,
      metadata: { ...rowMetadata(batchId, row), via: 'bulkpayment' },
      account: context.account('airtime'),
    });
  }
  const csv = await writeSheet(
    'csv',
    ['msisdn', 'amount', 'reference'],
    rows.map((row) => [row.msisdn, row.amount, row.reference ?? null]),
    // Read by the platform, not opened by a person: the references exactly as the rows give them.
    { inertFormulas: false },
  );
  const form = new FormData();
  form.set('batch_id', batchId);
  form.set('file', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), `${batchId}.csv`);

  let answer: AirtimeBulkResponse;
  try {
    answer = await context.transport.upload(airtimeBulkPaymentEndpoint, form, {
      merchantReference: rowReference('airtime', batchId, rows[0]?.row ?? 1),
      ...(input.signal ? { signal: input.signal } : {}),
      ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
    });
  } catch (error) {
    await recordRefusalOrSilence(input, error);
    return;
  }
  for (const [index, row] of rows.entries()) {
    await recordAnswerRow(input, row, answer.rows[index]);
  }
}

async function recordAnswerRow(
  input: SendBulkPaymentInput,
  row: BulkRow,
  line: AnswerRow | undefined,
): Promise<void> {
  const merchantReference = rowReference('airtime', input.batchId, row.row);
  // The answer must be about this row; anything else proves nothing about it.
  if (line === undefined || line.msisdn !== row.msisdn || line.amount !== row.amount) {
    const reason = 'the bulk answer has no line for this row: outcome unknown';
    await input.context.store.transition(merchantReference, 'unknown', { reason });
    input.onRow({ ...rowFields(row, merchantReference), status: 'unknown', message: reason });
    return;
  }
  // The row's payment must agree with it: a contradiction is neither success nor failure.
  const { payment } = line;
  const contradicted = contradictions({
    amount: [row.amount, payment.amount],
    msisdn: [row.msisdn, payment.msisdn],
    status: [line.status, payment.status === 'pending' ? undefined : payment.status],
  });
  const review = contradicted.length > 0 ? contradictionVerdict(contradicted) : undefined;
  await input.context.store.attachReferences(merchantReference, {
    paymentReference: payment.reference,
  });
  await input.context.store.transition(merchantReference, review ? 'needs_review' : line.status, {
    payload: line,
    ...(review ? { review, reason: review.message } : { reason: reasonFromPlatform(line.message) }),
  });
  input.onRow({
    ...rowFields(row, merchantReference),
    status: review ? 'unknown' : line.status,
    paymentReference: payment.reference,
    message: review?.message ?? line.message,
  });
}

async function recordRefusalOrSilence(input: SendBulkPaymentInput, error: unknown): Promise<void> {
  const asError = error instanceof Error ? error : new Error(String(error));
  const definite = (isApiError(error) && !isServerError(error)) || isConnectionError(error);
  const status = definite && !isAmbiguousOutcomeError(error) ? 'failed' : 'unknown';
  const reason =
    status === 'failed'
      ? `the bulk upload was refused, nothing spent: ${asError.message}`
      : `no answer to the bulk upload: outcome unknown (${asError.message})`;
  for (const row of input.rows) {
    const merchantReference = rowReference('airtime', input.batchId, row.row);
    await input.context.store.transition(merchantReference, status, {
      reason,
      ...(isApiError(error) ? { payload: error.body } : {}),
    });
    input.onRow({
      ...rowFields(row, merchantReference),
      status,
      message: reason,
      error: asError,
    });
  }
}
