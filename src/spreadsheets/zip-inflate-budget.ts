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
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfDirectory(view);
  if (end === undefined)
    throw damaged(name, 'its table of contents (the end of the zip) is missing');
  const entries = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (entries === 0xffff || directoryOffset === 0xffffffff) {
    throw damaged(name, 'it is a ZIP64 archive, which a workbook of this size never needs');
  }
  let offset = directoryOffset;
  let left = limit;
  for (let entry = 0; entry < entries; entry++) {
    if (offset + 46 > end || view.getUint32(offset, true) !== DIRECTORY_ENTRY) {
      throw damaged(name, 'its table of contents is cut short or does not match its entries');
    }
    const method = view.getUint16(offset + 10, true);
    const compressedSize = view.getUint32(offset + 20, true);
    const data = entryData(view, view.getUint32(offset + 42, true), compressedSize, name);
    left -= inflatedSize(bytes.subarray(data, data + compressedSize), method, left, name, limit);
    offset +=
      46 +
      view.getUint16(offset + 28, true) +
      view.getUint16(offset + 30, true) +
      view.getUint16(offset + 32, true);
  }
}

/** Where an entry's compressed bytes start, from its local header. */
function entryData(view: DataView, header: number, compressedSize: number, name: string): number {
  if (header + 30 > view.byteLength || view.getUint32(header, true) !== LOCAL_HEADER) {
    throw damaged(name, 'an entry of its table of contents points outside the file');
  }
  const data = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  if (data + compressedSize > view.byteLength) {
    throw damaged(name, 'an entry is cut short');
  }
  return data;
}

function inflatedSize(
  compressed: Uint8Array,
  method: number,
  left: number,
  name: string,
  limit: number,
): number {
  if (method === STORED) {
    if (compressed.byteLength > left) throw tooLarge(name, limit);
    return compressed.byteLength;
  }
  if (method !== DEFLATED) {
    throw damaged(name, `an entry uses compression method ${method}, which .xlsx never uses`);
  }
  if (compressed.byteLength === 0) return 0;
  if (left === 0) throw tooLarge(name, limit);
  try {
    return inflateRawSync(compressed, { maxOutputLength: left }).byteLength;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(name, limit);
    throw damaged(name, 'an entry does not inflate', error);
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

function tooLarge(name: string, limit: number): SpreadsheetError {
  return new SpreadsheetError(
    'too_large',
    `${name} inflates to more than ${limit} bytes (${limit / 1024 / 1024} MiB) when unzipped; an .xlsx of bulk rows is far smaller, so it is refused.`,
  );
}

function damaged(name: string, why: string, cause?: unknown): SpreadsheetError {
  return new SpreadsheetError(
    'corrupt_file',
    `${name} starts like an .xlsx workbook (a zip archive) but is damaged: ${why}. Save it again from your spreadsheet program.`,
    cause === undefined ? undefined : { cause },
  );
}
