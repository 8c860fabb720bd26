import type { TransactionRecord } from '../../references/index.js';
import { asciiTable } from '../output.js';
import { recordFields } from './pass-counts.js';

export function reviewJsonLine(record: TransactionRecord): string {
  return `${JSON.stringify({
    ...recordFields(record),
    msisdn: record.msisdn,
    controlNumber: record.controlNumber,
    paymentReference: record.paymentReference,
    externalReference: record.externalReference,
    txnid: record.txnid,
    refid: record.refid,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
    reason: record.review?.reason ?? null,
    message: record.review?.message ?? null,
    evidence: record.review?.evidence ?? null,
  })}\n`;
}

export function reviewTable(records: readonly TransactionRecord[]): string {
  const rows = records.map((record) => [
    record.merchantReference,
    `${record.product}/${record.flow}`,
    String(record.amount),
    record.updatedAt.toISOString().slice(0, 19).replace('T', ' '),
    record.review?.reason ?? '',
    record.review?.message ?? '',
  ]);
  const head = [
    'merchant reference',
    'product/flow',
    'amount TZS',
    'since',
    'reason',
    'what to check',
  ];
  return `${asciiTable(head, rows, { colWidths: [null, null, null, null, null, 60], wordWrap: true })}\n`;
}
