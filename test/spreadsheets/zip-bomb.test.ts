import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRows } from '../../src/resources/bulk/load-rows.js';
import { payoutBulkRows } from '../../src/resources/bulk/payout-bulk.js';
import { isSpreadsheetError, readAirtimeBulkFile } from '../../src/spreadsheets/index.js';
import { loadExcelJs } from '../../src/spreadsheets/xlsx.js';
import { MAX_INFLATED_BYTES } from '../../src/spreadsheets/zip-inflate-budget.js';
import { bearer, type RunningSandbox, startSandbox } from '../sandbox/support.js';
import { xlsxOf } from './files.js';
import { zipBombXlsx } from './zip-bomb.js';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./zip-bomb-child.ts', import.meta.url));

describe('an .xlsx that inflates past the limit is refused while inflating', () => {
  it('a 1 MiB file declaring 1,000 bytes that inflates to 1 GiB: SpreadsheetError naming the file and the limit, peak RSS growth under 128 MB', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', child], {
      maxBuffer: 1024 * 1024,
    });
    const result = JSON.parse(stdout) as { code: string; message: string; peakGrowth: number };
    expect(result.code).toBe('too_large');
    expect(result.message).toContain('"staff.xlsx"');
    expect(result.message).toContain(`${MAX_INFLATED_BYTES} bytes (32 MiB)`);
    expect(result.peakGrowth).toBeLessThan(128 * 1024 * 1024);
  }, 60_000);

  it('a payout file is read under the same budget: the bomb is refused too_large', async () => {
    const error = await loadRows(payoutBulkRows, zipBombXlsx(), 'xlsx').catch((e: unknown) => e);
    expect(isSpreadsheetError(error) && error.code).toBe('too_large');
  });

  it('a real workbook inflates within the budget and reads', async () => {
    const file = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', 100],
    ]);
    expect((await readAirtimeBulkFile(file)).rows).toHaveLength(1);
  });

  describe('the sandbox bulk route', () => {
    let sandbox: RunningSandbox | undefined;
    afterEach(() => sandbox?.close());

    it('answers 422 too_large under `file`', async () => {
      sandbox = await startSandbox();
      const token = await sandbox.account('airtime', 'bulk@duka.tz', 1_000_000);
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(zipBombXlsx())]), 'staff.xlsx');
      const response = await fetch(`${sandbox.url}/api/sandbox/airtime/customer/bulkpayment`, {
        method: 'POST',
        body: form,
        headers: bearer(token),
      });
      const body = (await response.json()) as { code?: string; errors?: { file?: string[] } };
      expect(response.status).toBe(422);
      expect(body.code).toBe('too_large');
      expect(body.errors?.file?.[0]).toContain('32 MiB');
    }, 60_000);
  });
});

describe('exceljs is an optional peer', () => {
  const missing = Object.assign(new Error("Cannot find package 'exceljs' imported from x.js"), {
    code: 'ERR_MODULE_NOT_FOUND',
  });

  it('missing, it is a SpreadsheetError that names the package to install', async () => {
    const error = await loadExcelJs(() => Promise.reject(missing)).catch((e: unknown) => e);
    expect(isSpreadsheetError(error)).toBe(true);
    expect((error as { code: string }).code).toBe('xlsx_support_missing');
    expect((error as Error).message).toContain('npm install exceljs');
  });

  it('any other failure to load it is thrown as it is', async () => {
    const broken = new Error('exceljs failed to initialise');
    await expect(loadExcelJs(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});
