import { SpreadsheetError } from './spreadsheet-error.js';

/**
 * How large the contents of an `.xlsx` may be once unzipped. A 5,000-row sheet unzips to well
 * under 1 MiB; 100 MiB leaves room for big workbooks while a zip bomb (a few KiB that expand
 * to gigabytes) is refused before anything is decompressed.
 */
export const MAX_UNZIPPED_BYTES = 100 * 1024 * 1024;

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;

/**
 * Reads the zip's central directory (the table of contents at its end) and refuses an archive
 * that is cut short, lies about its layout, or declares more than {@link MAX_UNZIPPED_BYTES} of
 * contents. It does not decompress anything.
 */
export function checkZipDirectory(bytes: Uint8Array, limit = MAX_UNZIPPED_BYTES): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfDirectory(view);
  if (end === undefined) throw damaged('its table of contents (the end of the zip) is missing');
  const entries = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (entries === 0xffff || directoryOffset === 0xffffffff) {
    throw damaged('it is a ZIP64 archive, which a workbook of this size never needs');
  }
  let offset = directoryOffset;
  let total = 0;
  for (let entry = 0; entry < entries; entry++) {
    if (offset + 46 > end || view.getUint32(offset, true) !== DIRECTORY_ENTRY) {
      throw damaged('its table of contents is cut short or does not match its entries');
    }
    total += view.getUint32(offset + 24, true);
    if (total > limit) {
      throw new SpreadsheetError(
        'corrupt_file',
        `The workbook expands to more than ${limit} bytes when unzipped; an .xlsx of bulk rows is far smaller, so this file is refused.`,
      );
    }
    offset +=
      46 +
      view.getUint16(offset + 28, true) +
      view.getUint16(offset + 30, true) +
      view.getUint16(offset + 32, true);
  }
}

function findEndOfDirectory(view: DataView): number | undefined {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  const last = view.byteLength - 22;
  const first = Math.max(0, last - 0xffff);
  for (let offset = last; offset >= first; offset--) {
    if (view.getUint32(offset, true) === END_OF_DIRECTORY) return offset;
  }
  return undefined;
}

function damaged(why: string): SpreadsheetError {
  return new SpreadsheetError(
    'corrupt_file',
    `The file starts like an .xlsx workbook (a zip archive) but is damaged: ${why}. Save it again from your spreadsheet program.`,
  );
}
