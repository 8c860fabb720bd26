import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip bomb dressed as an `.xlsx`: about 1 MiB whose worksheet entry declares 1,000 bytes but
 * inflates to 1 GiB of zeros. Built without ever holding the 1 GiB: 16 MiB of zeros deflated
 * once (ending on a sync flush, so the blocks are not final), repeated 64 times, closed by an
 * empty final block.
 */
export function zipBombXlsx(): Buffer {
  const piece = deflateRawSync(Buffer.alloc(16 * 1024 * 1024), {
    level: 9,
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  const bomb = Buffer.concat([...Array.from({ length: 64 }, () => piece), Buffer.from([3, 0])]);
  const types = Buffer.from('<?xml version="1.0"?><Types/>');
  return zipOf([
    { name: '[Content_Types].xml', method: 0, data: types, crc: crc32(types), size: types.length },
    { name: 'xl/worksheets/sheet1.xml', method: 8, data: bomb, crc: 0, size: 1000 },
  ]);
}

interface ZipEntry {
  name: string;
  method: 0 | 8;
  data: Buffer;
  crc: number;
  /** The uncompressed size the archive declares. */
  size: number;
}

/** A zip archive of `entries` as given: their declared sizes are written as they are. */
function zipOf(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    directory.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const centralBytes = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBytes, end]);
}
