import { isBlankRow, type SheetLine } from './sheet-table.js';
import { SpreadsheetError } from './spreadsheet-error.js';

const DELIMITERS = [',', ';', '\t'] as const;

/**
 * Reads CSV text as RFC 4180 does: fields in double quotes may hold the delimiter, line breaks
 * and `""` for a quote; lines end in CRLF, LF or CR; a UTF-8 byte-order mark is dropped. The
 * delimiter is `,` unless the first line has more `;` or tabs (Excel writes `;` where the
 * comma is the decimal mark). Blank lines are skipped. Stops as soon as more than `maxLines`
 * non-blank lines were read (`truncated`), so a huge file is not read whole.
 */
export function readCsvLines(
  text: string,
  maxLines: number,
): { lines: SheetLine[]; truncated: boolean } {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const delimiter = sniffDelimiter(source);
  const lines: SheetLine[] = [];
  let fields: string[] = [];
  let field = '';
  // True once the current field has content or was quoted: a quote opens a quoted field only
  // at the very start of a field.
  let started = false;
  let line = 1;
  let recordLine = 1;
  let index = 0;
  const endField = () => {
    fields.push(field);
    field = '';
    started = false;
  };
  const endRecord = () => {
    endField();
    if (!isBlankRow(fields)) {
      lines.push({ line: recordLine, cells: fields });
    }
    fields = [];
  };
  while (index < source.length) {
    const char = source[index]!;
    if (char === '"' && !started) {
      index = readQuoted(source, index + 1, (text, breaks) => {
        field = text;
        line += breaks;
      });
      started = true;
      const next = source[index];
      if (next !== undefined && next !== delimiter && next !== '\r' && next !== '\n') {
        throw new SpreadsheetError(
          'corrupt_file',
          `Line ${line}: text follows a closing double quote; a quote inside a quoted field is written "".`,
        );
      }
    } else if (char === delimiter) {
      endField();
      index++;
    } else if (char === '\r' || char === '\n') {
      endRecord();
      if (lines.length > maxLines) return { lines, truncated: true };
      index += char === '\r' && source[index + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
    } else if (char === '"') {
      throw new SpreadsheetError(
        'corrupt_file',
        `Line ${line}: a double quote inside an unquoted field; quote the whole field and write the quote as "".`,
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

/**
 * Reads a quoted field from just after its opening quote; hands over its text and the line
 * breaks inside it, and returns the index just after the closing quote.
 */
function readQuoted(
  source: string,
  from: number,
  done: (text: string, lineBreaks: number) => void,
): number {
  let text = '';
  let breaks = 0;
  let index = from;
  for (;;) {
    if (index >= source.length) {
      const line = source.slice(0, from).split(/\r\n|\r|\n/).length;
      throw new SpreadsheetError(
        'corrupt_file',
        `Line ${line}: a quoted field is never closed; add the closing double quote.`,
      );
    }
    const char = source[index]!;
    if (char === '"') {
      if (source[index + 1] !== '"') break;
      text += '"';
      index += 2;
      continue;
    }
    if (char === '\n' || (char === '\r' && source[index + 1] !== '\n')) breaks++;
    text += char;
    index++;
  }
  done(text, breaks);
  return index + 1;
}

function sniffDelimiter(source: string): string {
  const end = source.search(/[\r\n]/);
  const first = end === -1 ? source : source.slice(0, end);
  let best: string = ',';
  let bestCount = 0;
  for (const candidate of DELIMITERS) {
    const count = first.split(candidate).length - 1;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}

/** One CSV field: quoted when it holds the delimiter, a quote, a line break or edge spaces. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
