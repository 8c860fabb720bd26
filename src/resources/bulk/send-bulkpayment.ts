import type { AirtimeBulkResponse } from '../../schemas/airtime-bulk.js';
import { writeSheet } from '../../spreadsheets/index.js';
import type { ClientContext } from '../client-context.js';
import { reasonFromPlatform } from '../stored-reason.js';
import { checkedOutcome, recordAnswer, recordFailure } from '../write-ahead.js';
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
 * Sends the rows left in one CSV upload to the bulkpayment route: the write-ahead path of every
 * money request (`write-ahead.ts`) with one request for many rows. Every intent is written first;
 * answer rows match ours by position; a failed upload is recorded on every row by the same rule
 * as a single payment's.
 */
export async function sendBulkPayment(input: SendBulkPaymentInput): Promise<void> {
  const { context, batchId, rows } = input;
  // A wrong password is found out before any intent is written.
  await context.transport.authenticate('airtime', input.signal);
  for (const row of rows) {
    await context.ledger.open({
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
  const { ledger } = input.context;
  // The answer must be about this row; anything else proves nothing about it.
  if (line === undefined || line.msisdn !== row.msisdn || line.amount !== row.amount) {
    const reason = 'the bulk answer has no line for this row: outcome unknown';
    await ledger.move(merchantReference, { to: 'unknown', reason });
    input.onRow({ ...rowFields(row, merchantReference), status: 'unknown', message: reason });
    return;
  }
  // The row's payment must agree with it: a contradiction is neither success nor failure.
  const { payment } = line;
  const { outcome, contradicted } = checkedOutcome(
    {
      amount: [row.amount, payment.amount],
      msisdn: [row.msisdn, payment.msisdn],
      status: [line.status, payment.status === 'pending' ? undefined : payment.status],
    },
    () => ({ status: line.status, reason: reasonFromPlatform(line.message) }),
  );
  await recordAnswer(ledger, merchantReference, {
    references: { paymentReference: payment.reference },
    outcome,
    payload: line,
  });
  input.onRow({
    ...rowFields(row, merchantReference),
    status: contradicted.length > 0 ? 'unknown' : line.status,
    paymentReference: payment.reference,
    message: outcome.review?.message ?? line.message,
  });
}

async function recordRefusalOrSilence(input: SendBulkPaymentInput, error: unknown): Promise<void> {
  const asError = error instanceof Error ? error : new Error(String(error));
  for (const row of input.rows) {
    const merchantReference = rowReference('airtime', input.batchId, row.row);
    const { status, reason } = await recordFailure(input.context.ledger, merchantReference, error);
    input.onRow({
      ...rowFields(row, merchantReference),
      status,
      message:
        status === 'failed'
          ? `the bulk upload was refused, nothing spent: ${reason}`
          : `no answer to the bulk upload: ${reason} (${asError.message})`,
      error: asError,
    });
  }
}
