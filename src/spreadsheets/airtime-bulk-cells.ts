/**
 * How bulk cells become row values, the same for a file and for rows given in code. Nothing
 * here judges a value (the row schema does); it only undoes what spreadsheets do to them.
 */

/**
 * An MSISDN cell as text. Spreadsheet programs turn `255712345678` typed in a cell into a
 * number; an integer becomes its digits again. Anything else is kept as written, for the row
 * schema to judge.
 */
export function msisdnFromCell(cell: unknown): unknown {
  if (typeof cell === 'number' && Number.isSafeInteger(cell)) return String(cell);
  if (typeof cell === 'string') return cell.trim() === '' ? undefined : cell.trim();
  return cell;
}

/** A plain decimal number as text: digits, an optional point and decimals, an optional sign. */
const PLAIN_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * An amount cell as a number when it is one: a number cell, or text that is a plain decimal
 * number (`"1000"`, `" 2500.50 "`). Other text (`"1,000"`, `"TZS 500"`) is kept as text so the
 * row is refused with a message that says why.
 */
export function amountFromCell(cell: unknown): unknown {
  if (typeof cell !== 'string') return cell;
  const text = cell.trim();
  if (text === '') return undefined;
  return PLAIN_NUMBER.test(text) ? Number(text) : text;
}

/** A reference cell as text, or `undefined` for a blank one (the column is optional). */
export function referenceFromCell(cell: unknown): unknown {
  if (cell === null || cell === undefined) return undefined;
  if (typeof cell === 'number' || typeof cell === 'boolean') return String(cell);
  if (typeof cell === 'string') return cell.trim() === '' ? undefined : cell.trim();
  return cell;
}

/**
 * Why an amount written as text is not a number. A comma is refused rather than dropped:
 * `1,000` is a thousand to some readers and one to others (where the comma is the decimal
 * mark), and money must not be guessed.
 */
export function amountTextProblem(text: string): string {
  if (/^[-+]?[\d.,\s]+$/.test(text) && /[,\s]/.test(text)) {
    return `The amount "${text}" has a thousands separator or a decimal comma; write it as a plain number (1000 or 1000.50) — a comma could mean either, and money is not guessed.`;
  }
  return `The amount "${text}" is not a number; write it as a plain number such as 1000 or 1000.50 (no currency, no separators).`;
}
