import { inflateRawSync } from 'node:zlib';
import { SpreadsheetError } from './spreadsheet-error.js';

/** What an `.xlsx` may inflate to in all: far above 5,000 rows (under 1 MiB), stops a zip bomb. */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** Inflates every entry against one `limit` of actual bytes: declared sizes can be forged. */
export function checkInflatedSize(
  bytes: Uint8Array,
  name: string,
  limit = MAX_INFLATED_BYTES,
): void {
  const damaged = (why: string, cause?: unknown) =>
    new SpreadsheetError(
      'corrupt_file',
      `${name} starts like an .xlsx workbook (a zip archive) but is damaged: ${why}. Save it again from your spreadsheet program.`,
      { cause },
    );
  const tooLarge = () =>
    new SpreadsheetError(
      'too_large',
      `${name} inflates to more than ${limit} bytes (${limit / 1024 / 1024} MiB) when unzipped; an .xlsx of bulk rows is far smaller, so it is refused.`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  // The end-of-directory record: 22 bytes plus a comment of at most 65,535 bytes, at the end.
  let end = view.byteLength - 22;
  const earliest = Math.max(0, end - 0xffff);
  while (end >= earliest && u32(end) !== END_OF_DIRECTORY) end--;
  if (end < earliest) throw damaged('its table of contents (the end of the zip) is missing');
  const entries = u16(end + 10);
  let offset = u32(end + 16);
  if (entries === 0xffff || offset === 0xffffffff) {
    throw damaged('it is a ZIP64 archive, which a workbook of this size never needs');
  }
  let left = limit;
  for (let entry = 0; entry < entries; entry++) {
    if (offset + 46 > end || u32(offset) !== DIRECTORY_ENTRY) {
      throw damaged('its table of contents is cut short or does not match its entries');
    }
    const [method, size, header] = [u16(offset + 10), u32(offset + 20), u32(offset + 42)];
    if (header + 30 > view.byteLength || u32(header) !== LOCAL_HEADER) {
      throw damaged('an entry of its table of contents points outside the file');
    }
    const data = header + 30 + u16(header + 26) + u16(header + 28);
    if (data + size > view.byteLength) throw damaged('an entry is cut short');
    if (method !== STORED && method !== DEFLATED) {
      throw damaged(`an entry uses compression method ${method}, which .xlsx never uses`);
    }
    if (size > 0 && (left === 0 || (method === STORED && size > left))) throw tooLarge();
    const compressed = bytes.subarray(data, data + size);
    try {
      left -=
        method === STORED || size === 0
          ? size
          : inflateRawSync(compressed, { maxOutputLength: left }).byteLength;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
      throw damaged('an entry does not inflate', error);
    }
    // Past the entry: 46 bytes, then its name, extra field and comment.
    offset += 46 + u16(offset + 28) + u16(offset + 30) + u16(offset + 32);
  }
}
