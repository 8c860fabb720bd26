import { SpreadsheetError } from './spreadsheet-error.js';

/** The spreadsheet formats pesakit reads and writes. */
export type SheetFormat = 'xlsx' | 'csv';

const startsWith = (bytes: Uint8Array, magic: readonly number[]) =>
  magic.every((byte, index) => bytes[index] === byte);

/** A file's format by content (zip → `xlsx`, text → `csv`), by name only when that cannot say. */
export function detectSheetFormat(bytes: Uint8Array, fileName?: string): SheetFormat | undefined {
  if (bytes.length === 0) {
    const extension = fileName?.toLowerCase().match(/\.(xlsx|csv|txt)$/)?.[1];
    return extension === 'txt' ? 'csv' : (extension as SheetFormat | undefined);
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'xlsx';
  const control = (byte: number) =>
    (byte < 0x20 && ![0x09, 0x0a, 0x0d].includes(byte)) || byte === 0x7f;
  return bytes.subarray(0, 8192).some(control) ? undefined : 'csv';
}

/** Why a file that {@link detectSheetFormat} does not know is refused, and what to save instead. */
export function unsupportedFormat(bytes: Uint8Array, name: string): SpreadsheetError {
  // Excel 97–2003 `.xls` (an OLE2 compound file) and UTF-16 text are recognised to say so.
  const why = startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
    ? 'is an Excel 97–2003 .xls workbook, which is not read; save it as .xlsx (Excel Workbook) or CSV UTF-8.'
    : startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])
      ? 'is UTF-16 text; save it as "CSV UTF-8" or as .xlsx.'
      : 'is neither an .xlsx workbook nor CSV text (its content is binary, such as an image or a PDF); upload the spreadsheet as .xlsx or .csv.';
  return new SpreadsheetError('unsupported_format', `${name} ${why}`);
}
