import type { z } from 'zod';
import {
  AIRTIME_BULK_MAX_ROWS,
  type AirtimeBulkRow,
  airtimeBulkRowSchema,
} from '../schemas/airtime-bulk.js';
import { type FieldErrors, fieldErrorsFrom } from '../schemas/error-body.js';
import { cellValue } from './cells.js';
import { type ReadSheetOptions, readSheetRows, type SheetColumns } from './read-sheet.js';
import type { SheetFormat } from './sheet-format.js';

/** A bulk row given in code (an array source): the values a purchase takes, plus a label. */
export type AirtimeBulkRowInput = AirtimeBulkRow;

/** A row as read from a file, unjudged; `amount` is text when the cell held a non-number. */
export interface ParsedAirtimeBulkRow {
  row: number;
  line: number;
  msisdn: string;
  amount: number | string;
  reference?: string;
}

export type ParsedAirtimeBulkFile = { format: SheetFormat; rows: ParsedAirtimeBulkRow[] };

export const airtimeBulkColumns = {
  msisdn: 'text',
  amount: 'number',
  reference: 'optional text',
} as const;

/** Reads a bulk airtime `.xlsx`/`.csv` (`msisdn`, `amount`, `reference?`); does not judge rows. */
export function readAirtimeBulkFile(
  bytes: Uint8Array,
  options: ReadSheetOptions = {},
): Promise<ParsedAirtimeBulkFile> {
  const maxRows = options.maxRows ?? AIRTIME_BULK_MAX_ROWS;
  return readSheetRows<ParsedAirtimeBulkRow>(bytes, airtimeBulkColumns, { ...options, maxRows });
}

/** A row that breaks a rule: where it is, which field, and a message that names both. */
export interface BulkRowProblem {
  /** 1-based data row (the first row under the header is row 1). */
  row: number;
  /** Where the row is in its file (sheet row number or CSV line), for rows read from a file. */
  line?: number;
  field: string;
  /** e.g. `Row 3 (line 4): The msisdn must be 255 followed by nine digits.` */
  message: string;
}

/** A row as given to {@link validateAirtimeBulkRows}: read from a file or built in code. */
export interface UncheckedAirtimeBulkRow {
  row: number;
  line?: number;
  msisdn: unknown;
  amount: unknown;
  reference?: unknown;
}

/** Judges every row and returns all problems at once, so a file is fixed in one pass. */
export function validateAirtimeBulkRows(rows: ReadonlyArray<UncheckedAirtimeBulkRow>): {
  rows: Array<AirtimeBulkRow & { row: number }>;
  problems: BulkRowProblem[];
} {
  return validateBulkRows(rows, airtimeBulkRowSchema, airtimeBulkColumns, false);
}

/** Any product's rows by its schema and columns; `copies`: a row repeating an earlier one is refused. */
export function validateBulkRows<Row extends { reference?: string | undefined }>(
  rows: ReadonlyArray<{ row: number; line?: number }>,
  schema: z.ZodType<Row>,
  columns: SheetColumns,
  copies: boolean,
): { rows: Array<Row & { row: number }>; problems: BulkRowProblem[] } {
  const valid: Array<Row & { row: number }> = [];
  const problems: BulkRowProblem[] = [];
  const referenceRows = new Map<string, number>();
  const rowsByContent = new Map<string, number>();
  for (const input of rows) {
    const { row, line } = input;
    const found: Array<[field: string, message: string]> = [];
    const candidate: Record<string, unknown> = {};
    for (const [column, kind] of Object.entries(columns)) {
      const cell = (input as unknown as Record<string, unknown>)[column];
      candidate[column] = cellValue(cell, kind === 'number' ? 'number' : 'text');
    }
    const { amount } = candidate;
    if (typeof amount === 'string') found.push(['amount', amountTextProblem(amount)]);
    const parsed = schema.safeParse(candidate);
    const errors = parsed.success ? {} : fieldErrorsFrom(parsed.error, candidate);
    for (const [field, messages] of Object.entries(errors)) {
      if (field === 'amount' && typeof amount === 'string') continue;
      for (const message of messages) found.push([field, message]);
    }
    const reference = parsed.data?.reference;
    const first = reference === undefined ? undefined : referenceRows.get(reference);
    if (reference !== undefined && first === undefined) referenceRows.set(reference, row);
    if (first !== undefined) {
      const why = `is already used by row ${first}; each row's reference must be unique.`;
      found.push(['reference', `The reference "${reference}" ${why}`]);
    }
    const content = copies && parsed.success ? JSON.stringify(parsed.data) : undefined;
    const copied = content === undefined ? undefined : rowsByContent.get(content);
    if (content !== undefined && copied === undefined) rowsByContent.set(content, row);
    if (copied !== undefined) {
      const why = `repeats row ${copied} (same msisdn, amount, name and reference): paid twice if kept.`;
      found.push([
        'msisdn',
        `This row ${why} Remove the copy, or give each row its own reference.`,
      ]);
    }
    const at = line === undefined ? { row } : { row, line };
    const where = line === undefined ? `Row ${row}` : `Row ${row} (line ${line})`;
    problems.push(
      ...found.map(([field, message]) => ({ ...at, field, message: `${where}: ${message}` })),
    );
    if (parsed.success && found.length === 0) valid.push({ ...parsed.data, row });
  }
  return { rows: valid, problems };
}

/** A comma is refused, not dropped: `1,000` is a thousand to some readers and one to others. */
function amountTextProblem(text: string): string {
  if (/^[-+]?[\d.,\s]+$/.test(text) && /[,\s]/.test(text)) {
    return `The amount "${text}" has a thousands separator or a decimal comma; write it as a plain number (1000 or 1000.50) — a comma could mean either, and money is not guessed.`;
  }
  return `The amount "${text}" is not a number; write it as a plain number such as 1000 or 1000.50 (no currency, no separators).`;
}

/** Problems as the platform's 422 field map, keyed `rows.<row>.<field>` (`rows.3.msisdn`). */
export function bulkRowFieldErrors(problems: ReadonlyArray<BulkRowProblem>): FieldErrors {
  const errors: FieldErrors = {};
  for (const { row, field, message } of problems) {
    errors[`rows.${row}.${field}`] = [...(errors[`rows.${row}.${field}`] ?? []), message];
  }
  return errors;
}
