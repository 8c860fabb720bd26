import { csvField } from './csv.js';
import type { SheetFormat } from './sheet-format.js';
import { writeXlsx } from './xlsx.js';

/**
 * A one-sheet spreadsheet: the header row, then the rows. CSV is UTF-8 with a byte-order mark
 * (so that Excel shows non-ASCII names correctly) and CRLF line ends, as RFC 4180 writes it.
 * MSISDNs given as text stay text in the `.xlsx` (a number cell would lose nothing here, but
 * Excel shows long numbers in scientific notation).
 *
 * @example await writeFile('results.xlsx', await writeSheet('xlsx', ['msisdn', 'status'], rows));
 */
export async function writeSheet(
  format: SheetFormat,
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number | null>>,
): Promise<Buffer> {
  if (format === 'xlsx') return writeXlsx(header, rows);
  const lines = [header, ...rows].map((row) => row.map(csvField).join(','));
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}
