/** The spreadsheet formats pesakit reads and writes. */
export type SheetFormat = 'xlsx' | 'csv';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** Excel 97–2003 `.xls` (an OLE2 compound file): recognised only to refuse it clearly. */
const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, index) => bytes[index] === byte);
}

/** True for the header of an Excel 97–2003 `.xls` file. */
export function isLegacyXls(bytes: Uint8Array): boolean {
  return startsWith(bytes, OLE2_MAGIC);
}

/**
 * True when the start of the file can be text: no NUL byte and no other control character
 * but tab, CR and LF. (UTF-16 text has NULs; it is refused as "save as UTF-8".)
 */
function looksLikeText(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8192);
  for (let index = 0; index < end; index++) {
    const byte = bytes[index]!;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
    if (byte === 0x7f) return false;
  }
  return true;
}

/**
 * The format of a file, by its content first: a zip archive (`PK\x03\x04`) is an `.xlsx`
 * workbook; text is CSV. A file name settles only what the content cannot (an empty file).
 * `undefined` when it is neither (an image, a PDF, a legacy `.xls`, UTF-16 text).
 *
 * @example detectSheetFormat(await readFile('staff.xlsx')) // 'xlsx'
 */
export function detectSheetFormat(bytes: Uint8Array, fileName?: string): SheetFormat | undefined {
  if (bytes.length === 0) return formatFromName(fileName);
  if (startsWith(bytes, ZIP_MAGIC)) return 'xlsx';
  if (looksLikeText(bytes)) return 'csv';
  return undefined;
}

/** The format a file name's extension claims, if it names one. */
export function formatFromName(fileName: string | undefined): SheetFormat | undefined {
  const extension = fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (extension === 'xlsx') return 'xlsx';
  if (extension === 'csv' || extension === 'txt') return 'csv';
  return undefined;
}
