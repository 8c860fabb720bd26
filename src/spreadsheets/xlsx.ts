import type ExcelJS from 'exceljs';
import type { CellValue } from 'exceljs';
import { isBlankRow, type SheetCell, type SheetLine } from './cells.js';
import { SpreadsheetError } from './spreadsheet-error.js';
import { checkInflatedSize } from './zip-inflate-budget.js';

/** Loads the optional peer exceljs on first use, so CSV works without it. */
export async function loadExcelJs(
  load: () => Promise<{ default: typeof ExcelJS }> = () => import('exceljs'),
): Promise<typeof ExcelJS> {
  try {
    return (await load()).default;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
    if (!missing || typeof message !== 'string' || !message.includes("'exceljs'")) throw error;
    throw new SpreadsheetError(
      'xlsx_support_missing',
      '.xlsx files need the optional package exceljs, which is not installed: run `npm install exceljs` (CSV files need nothing more).',
      { cause: error },
    );
  }
}

/** The first worksheet's non-blank rows with their row numbers, up to one more than `maxLines`. */
export async function readXlsxLines(
  bytes: Uint8Array,
  maxLines: number,
  name: string,
): Promise<{ lines: SheetLine[]; truncated: boolean }> {
  // Before exceljs sees the file: it would inflate every entry in full, however large.
  checkInflatedSize(bytes, name);
  const workbook = new (await loadExcelJs()).Workbook();
  const corrupt = (why: string, cause?: unknown) =>
    new SpreadsheetError('corrupt_file', `${name} ${why}`, { cause });
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await workbook.xlsx.load(buffer as never).catch((error: unknown) => {
    throw corrupt(
      'is a zip archive but not a readable .xlsx workbook (damaged, or another kind of zip). Save it again from your spreadsheet program as .xlsx.',
      error,
    );
  });
  const sheet = workbook.worksheets[0];
  if (!sheet) throw corrupt('has no worksheet. Put the rows on the first sheet.');
  const lines: SheetLine[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    // exceljs numbers cells from 1; index 0 is always empty.
    const cells = Array.from((row.values as CellValue[]).slice(1), sheetCell);
    if (lines.length <= maxLines && !isBlankRow(cells)) lines.push({ line: rowNumber, cells });
  });
  return { lines, truncated: lines.length > maxLines };
}

/** What a spreadsheet program shows in a cell, as text, number or boolean. */
function sheetCell(value: CellValue | undefined): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('result' in value) return sheetCell(value.result as CellValue); // a formula: its result
  if ('hyperlink' in value) return value.text;
  if ('error' in value) return value.error;
  return null;
}
