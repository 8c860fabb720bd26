import { ConfigurationError } from '../errors/configuration-error.js';
import { csvField } from './csv.js';
import type { SheetFormat } from './sheet-format.js';
import { loadExcelJs } from './xlsx.js';

/** How `writeSheet` writes its cells. */
export interface WriteSheetOptions {
  /** Prefixes formula-like text with `'` against CSV injection. @default true */
  inertFormulas?: boolean;
}

/**
 * A one-sheet spreadsheet; CSV gets a byte-order mark so Excel shows non-ASCII names.
 * @throws ConfigurationError (`option: 'inertFormulas'`) when the option is not a boolean.
 */
export async function writeSheet(
  format: SheetFormat,
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
  options: WriteSheetOptions = {},
): Promise<Buffer> {
  const inert = options?.inertFormulas ?? true;
  if (typeof inert !== 'boolean') {
    throw new ConfigurationError('inertFormulas', 'writeSheet: inertFormulas must be a boolean.');
  }
  // A leading `'` is the spreadsheet's own "this is text" mark; numbers are never formulas. A
  // leading tab, CR or LF is one a spreadsheet may drop before reading the formula after it.
  const inertCell = <Cell>(cell: Cell) =>
    typeof cell === 'string' && /^[=+\-@\t\r\n]/.test(cell) ? `'${cell}` : cell;
  const head = inert ? header.map(inertCell) : header;
  const body = inert ? rows.map((row) => row.map(inertCell)) : rows;
  if (format === 'xlsx') {
    const workbook = new (await loadExcelJs()).Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow([...head]).font = { bold: true };
    for (const row of body) sheet.addRow([...row]);
    return Buffer.from(await workbook.xlsx.writeBuffer());
  }
  const lines = [head, ...body].map((row) => row.map(csvField).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
