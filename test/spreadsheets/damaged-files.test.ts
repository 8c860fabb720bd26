import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSpreadsheetError, readAirtimeBulkFile } from '../../src/spreadsheets/index.js';
import { csvOf, xlsxOf } from './files.js';

/** Reads, or refuses with a SpreadsheetError: any other outcome (a crash, a hang) fails. */
async function readsOrRefuses(bytes: Uint8Array): Promise<void> {
  try {
    await readAirtimeBulkFile(bytes);
  } catch (error) {
    expect(isSpreadsheetError(error), String(error)).toBe(true);
  }
}

const damage = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
  minLength: 1,
  maxLength: 8,
});

function damaged(base: Buffer, edits: ReadonlyArray<readonly [number, number]>): Buffer {
  const bytes = Buffer.from(base);
  for (const [at, value] of edits) bytes[at % bytes.length] = value;
  return bytes;
}

describe('damaged files are refused, never a crash', () => {
  it('an .xlsx with bytes overwritten anywhere', async () => {
    const base = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', 100],
      ['255754000002', 200],
    ]);
    await fc.assert(
      fc.asyncProperty(damage, (edits) => readsOrRefuses(damaged(base, edits))),
      { numRuns: 60 },
    );
  });

  it('an .xlsx cut short anywhere', async () => {
    const base = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', 100],
    ]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: base.length - 1 }), (length) =>
        readsOrRefuses(base.subarray(0, length)),
      ),
      { numRuns: 60 },
    );
  });

  it('any text as CSV', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), (text) =>
        readsOrRefuses(csvOf(`msisdn,amount\n${text}`)),
      ),
      { numRuns: 100 },
    );
  });
});
