import { inflateRawSync } from 'node:zlib';
import { SpreadsheetError } from './spreadsheet-error.js';

/**
 * How many bytes the entries of an `.xlsx` may inflate to, all together. A 5,000-row sheet
 * inflates to well under 1 MiB; 32 MiB leaves room for large workbooks and bounds what a zip
 * bomb (a small file whose entries inflate to gigabytes) can cost.
 */
export const MAX_INFLATED_BYTES = 32 * 1024 * 1024;

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/**
 * Inflates every entry of the zip in `bytes`, counting the bytes it actually produces against
 * one budget of `limit`, and refuses the archive as soon as the budget runs out: the sizes a
 * zip declares are not trusted, since a forged archive declares whatever it likes. Each entry's
 * inflation stops at what is left of the budget (`maxOutputLength`), so memory stays bounded
 * by `limit` whatever the archive holds. Runs before the workbook library sees the file; the
 * inflated bytes are dropped.
 */
export function checkInflatedSize(
  bytes: Uint8Array,
  name: string,
  limit = MAX_INFLATED_BYTES,
): void {
  const damaged = (why: string, cause?: unknown) =>
    new SpreadsheetError(
      'corrupt_file',
      `${name} starts like an .xlsx workbook (a zip archive) but is damaged: ${why}. Save it again from your spreadsheet program.`,
      cause === undefined ? undefined : { cause },
    );
  const tooLarge = () =>
    new SpreadsheetError(
      'too_large',
      `${name} inflates to more than ${limit} bytes (${limit / 1024 / 1024} MiB) when unzipped; an .xlsx of bulk rows is far smaller, so it is refused.`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfDirectory(view);
  if (end === undefined) throw damaged('its table of contents (the end of the zip) is missing');
  const entries = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (entries === 0xffff || offset === 0xffffffff) {
    throw damaged('it is a ZIP64 archive, which a workbook of this size never needs');
  }
  let left = limit;
  for (let entry = 0; entry < entries; entry++) {
    if (offset + 46 > end || view.getUint32(offset, true) !== DIRECTORY_ENTRY) {
      throw damaged('its table of contents is cut short or does not match its entries');
    }
    const method = view.getUint16(offset + 10, true);
    const size = view.getUint32(offset + 20, true);
    const header = view.getUint32(offset + 42, true);
    if (header + 30 > view.byteLength || view.getUint32(header, true) !== LOCAL_HEADER) {
      throw damaged('an entry of its table of contents points outside the file');
    }
    const data =
      header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
    if (data + size > view.byteLength) throw damaged('an entry is cut short');
    if (method !== STORED && method !== DEFLATED) {
      throw damaged(`an entry uses compression method ${method}, which .xlsx never uses`);
    }
    if (size > 0 && (left === 0 || (method === STORED && size > left))) throw tooLarge();
    if (method === STORED || size === 0) left -= size;
    else {
      try {
        left -= inflateRawSync(bytes.subarray(data, data + size), {
          maxOutputLength: left,
        }).byteLength;
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
        throw damaged('an entry does not inflate', error);
      }
    }
    // Past the entry: 46 bytes, then its name, extra field and comment.
    const at = offset;
    offset += 46 + [28, 30, 32].reduce((sum, field) => sum + view.getUint16(at + field, true), 0);
  }
}

/** The end-of-directory record: 22 bytes plus a comment of at most 65,535 bytes, at the end. */
function findEndOfDirectory(view: DataView): number | undefined {
  const last = view.byteLength - 22;
  for (let offset = last; offset >= Math.max(0, last - 0xffff); offset--) {
    if (view.getUint32(offset, true) === END_OF_DIRECTORY) return offset;
  }
  return undefined;
}
