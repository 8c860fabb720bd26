import { isBlankRow, type SheetLine } from './cells.js';
import { SpreadsheetError } from './spreadsheet-error.js';

/** RFC 4180 CSV, `;`/tab delimited when the first line says so; stops past `maxLines`. */
export function readCsvLines(
  text: string,
  maxLines: number,
): { lines: SheetLine[]; truncated: boolean } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = source.split(/[\r\n]/, 1)[0] ?? '';
  const count = (candidate: string) => first.split(candidate).length - 1;
  const delimiter = [';', '\t'].reduce(
    (best, next) => (count(next) > count(best) ? next : best),
    ',',
  );
  const lines: SheetLine[] = [];
  let fields: string[] = [];
  let field = '';
  // A quote opens a quoted field only at the very start of a field, before anything `started` it.
  let started = false;
  let line = 1;
  let recordLine = 1;
  const corrupt = (at: number, why: string) =>
    new SpreadsheetError('corrupt_file', `Line ${at}: ${why}`);
  const endField = () => {
    fields.push(field);
    field = '';
    started = false;
  };
  const endRecord = () => {
    endField();
    if (!isBlankRow(fields)) lines.push({ line: recordLine, cells: fields });
    fields = [];
  };
  for (let index = 0; index < source.length; ) {
    const char = source[index]!;
    if (char === '"' && !started) {
      const opened = line;
      for (index++; source[index] !== '"' || source[index + 1] === '"'; index++) {
        const inner = source[index];
        if (inner === undefined) {
          throw corrupt(opened, 'a quoted field is never closed; add the closing double quote.');
        }
        // `""` is one quote; a line break inside the field still counts as a line.
        if (inner === '"') index++;
        else if (inner === '\n' || (inner === '\r' && source[index + 1] !== '\n')) line++;
        field += inner;
      }
      started = true;
      const next = source[++index];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
        throw corrupt(
          line,
          'text follows a closing double quote; a quote inside a quoted field is written "".',
        );
      }
    } else if (char === delimiter) {
      endField();
      index++;
    } else if (char === '\r' || char === '\n') {
      endRecord();
      if (lines.length > maxLines) return { lines, truncated: true };
      index += char === '\r' && source[index + 1] === '\n' ? 2 : 1;
      recordLine = ++line;
    } else if (char === '"') {
      throw corrupt(
        line,
        'a double quote inside an unquoted field; quote the whole field and write the quote as "".',
      );
    } else {
      field += char;
      started = true;
      index++;
    }
  }
  if (started || fields.length > 0) endRecord();
  return { lines, truncated: lines.length > maxLines };
}

// `;` too: Excel splits on it where the decimal mark is a comma, and a tab where it guesses a
// tab-separated file (`x<TAB>=1` would be a formula in the cell after).
/** One CSV field: quoted when it holds a delimiter, a quote, a line break or edge spaces. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",;\t\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
