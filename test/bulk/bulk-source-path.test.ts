import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { isRequestValidationError } from '../../src/errors/index.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';

// `airtime.bulkPurchase('./uploads')` — a directory where a
// file was meant — said "./uploads: no such file", which sends a merchant looking for a missing
// path that is right there. It is a directory: say so. (Nothing is sent either way.)

const directory = mkdtempSync(join(tmpdir(), 'pesakit-bulk-source-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('bulkPurchase given a directory', () => {
  it('says it is a directory, not that nothing is there', async () => {
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:9',
      credentials: { airtime: { email: 'a@b.co.tz', password: 'whatever-1' } },
      store: new MemoryReferenceStore(),
    });
    let error: unknown;
    try {
      await pesakit.airtime.bulkPurchase(directory);
    } catch (caught) {
      error = caught;
    }
    expect(isRequestValidationError(error)).toBe(true);
    expect((error as Error).message).toContain(`${directory}: a directory, not a file`);
    expect((error as Error).message).not.toMatch(/no such file/);
  });
});
