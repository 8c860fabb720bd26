import type { CellValue, Workbook } from 'exceljs';
import { loadExcelJs } from './exceljs-module.js';
import type { SheetCell, SheetLine } from './sheet-table.js';
import { SpreadsheetError } from './spreadsheet-error.js';
import { checkInflatedSize } from './zip-inflate-budget.js';

async function newWorkbook(): Promise<Workbook> {
  const { Workbook } = await loadExcelJs();
  return new Workbook();
}

/**
 * Reads the first worksheet of an `.xlsx` workbook: its non-blank rows with their sheet row
 * numbers. Stops as soon as it knows there are more than `maxLines` (`truncated`). `name`
 * names the file in errors.
 */
export async function readXlsxLines(
  bytes: Uint8Array,
  maxLines: number,
  name: string,
): Promise<{ lines: SheetLine[]; truncated: boolean }> {
  // Before exceljs sees the file: it would inflate every entry in full, however large.
  checkInflatedSize(bytes, name);
  const workbook = await newWorkbook();
  try {
    await workbook.xlsx.load(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as never,
    );
  } catch (error) {
    throw new SpreadsheetError(
      'corrupt_file',
      'The file is a zip archive but not a readable .xlsx workbook (damaged, or another kind of zip). Save it again from your spreadsheet program as .xlsx.',
      { cause: error },
    );
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) {
    throw new SpreadsheetError(
      'corrupt_file',
      'The workbook has no worksheet. Put the rows on the first sheet.',
    );
  }
  const lines: SheetLine[] = [];
  let truncated = false;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (truncated) return;
    const values = row.values as CellValue[];
    const cells: SheetCell[] = [];
    // exceljs numbers cells from 1; index 0 is always empty.
    for (let column = 1; column < values.length; column++) cells.push(sheetCell(values[column]));
    if (cells.every((cell) => cell === null || cell === '')) return;
    lines.push({ line: rowNumber, cells });
    if (lines.length > maxLines) truncated = true;
  });
  return { lines, truncated };
}

/** What a spreadsheet program shows in a cell, as text, number or boolean. */
function sheetCell(value: CellValue | undefined): SheetCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    return sheetCell((value as { result?: CellValue }).result);
  }
  if ('hyperlink' in value) return value.text;
  if ('error' in value) return value.error;
  return null;
}

/** An `.xlsx` workbook of one sheet: a bold header row, then the rows as given. */
export async function writeXlsx(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
): Promise<Buffer> {
  const workbook = await newWorkbook();
  const sheet = workbook.addWorksheet('Sheet1');
  sheet.addRow([...header]).font = { bold: true };
  for (const row of rows) sheet.addRow([...row]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
