import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { ReferenceStore, TransactionStatus } from '../../src/references/index.js';
import { moves } from './moves.js';

/**
 * A new file path at each call, for a SQLite store opened by path, in a directory of the test
 * file's own that is removed after its tests.
 */
export function temporarySqliteFiles(prefix: string): () => string {
  const dir = mkdtempSync(join(tmpdir(), `pesakit-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let files = 0;
  return () => join(dir, `store-${++files}.sqlite`);
}

/** `count` collection intents, `order-000` on, moved to `status`: what a reconciler leases. */
export async function seedOpenRecords(
  store: ReferenceStore,
  count: number,
  status: Extract<TransactionStatus, 'pending' | 'unknown'> = 'pending',
): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const merchantReference = `order-${String(i).padStart(3, '0')}`;
    await store.records.create({
      merchantReference,
      product: 'collection',
      flow: 'mno',
      amount: 5000,
      msisdn: '255754123456',
    });
    await moves(store).transition(merchantReference, status);
  }
}
