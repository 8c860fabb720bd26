import type { TransactionRecord } from '../../references/index.js';
import type { Contradiction } from '../../references/review.js';
import { sameAmount } from '../../schemas/amount.js';
import type { DisbursementHistoryRow } from '../../schemas/disbursement.js';
import { normalizeMsisdn } from '../../schemas/msisdn.js';

// A history row and the payout asked for are compared after normalising, so that a formatting
// difference (`0754…` for `255754…`, `ASHA  mushi` for `Asha Mushi`) is no difference.

/** A payee's name as compared: trimmed, case-folded, inner spaces collapsed; blank is none. */
export function comparableName(name: string | undefined): string | undefined {
  const folded = name?.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
  return folded === '' ? undefined : folded;
}

/**
 * A payout answer's name as an echo `[asked, answered]`: a name that differs only in case or
 * spacing is the same name, so it is not answered at all (no contradiction).
 */
export function nameEcho(asked: string, answered: string | undefined): [string, unknown] {
  return [asked, comparableName(answered) === comparableName(asked) ? undefined : answered];
}

/** An MSISDN as compared: its `255…` wire form when it has one. */
function comparableMsisdn(msisdn: string | undefined): string | undefined {
  return msisdn === undefined ? undefined : (normalizeMsisdn(msisdn) ?? msisdn.trim());
}

/** How a row stands against the payout asked: `undefined` where the row carries no value. */
interface RowComparison {
  amount: boolean;
  msisdn: boolean | undefined;
  /** Compared only where both the row and the record carry a name. */
  name: boolean | undefined;
}

function compare(record: TransactionRecord, row: DisbursementHistoryRow): RowComparison {
  const rowMsisdn = comparableMsisdn(row.msisdn);
  const asked = comparableName(record.metadata['name']);
  const answered = comparableName(row.name);
  return {
    amount: sameAmount(record.amount, row.amount),
    msisdn:
      rowMsisdn === undefined
        ? undefined
        : rowMsisdn === comparableMsisdn(record.msisdn ?? undefined),
    name: asked === undefined || answered === undefined ? undefined : asked === answered,
  };
}

/**
 * What a row can say about a payout with no platform reference: `exact` (amount and MSISDN
 * equal, and the name where both carry one), `partial` (equal on MSISDN or on amount, or no
 * MSISDN to compare: it may be this payout, told differently), or `unrelated`.
 * A row with only `txnid`, `refid` and `amount` (the spec's shape) is never more than partial.
 */
export function rowMatch(
  record: TransactionRecord,
  row: DisbursementHistoryRow,
): 'exact' | 'partial' | 'unrelated' {
  const { amount, msisdn, name } = compare(record, row);
  if (amount && msisdn === true && name !== false) return 'exact';
  return amount || msisdn !== false ? 'partial' : 'unrelated';
}

/** Where a row says other than the payout asked (amount, recipient, name), raw values shown. */
export function rowContradictions(
  record: TransactionRecord,
  row: DisbursementHistoryRow,
): Contradiction[] {
  const { amount, msisdn, name } = compare(record, row);
  return [
    ...(amount ? [] : [{ field: 'amount', asked: record.amount, answered: row.amount }]),
    ...(msisdn === false ? [{ field: 'msisdn', asked: record.msisdn, answered: row.msisdn }] : []),
    ...(name === false
      ? [{ field: 'name', asked: record.metadata['name'], answered: row.name }]
      : []),
  ];
}
