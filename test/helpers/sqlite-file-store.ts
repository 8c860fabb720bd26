import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import type { ReferenceStore, TransactionStatus } from '../../src/references/index.js';
import { runNode } from './run-node.js';

/**
 * A new file path at each call, for a SQLite store opened by path (the one that starts the
 * store's threads), in a directory of the test file's own that is removed after its tests.
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
    await store.createIntent({
      merchantReference,
      product: 'collection',
      flow: 'mno',
      amount: 5000,
      msisdn: '255754123456',
    });
    await store.transition(merchantReference, status);
  }
}

const closeScript = fileURLToPath(new URL('./fixtures/sqlite-close-process.ts', import.meta.url));

/**
 * Runs fixtures/sqlite-close-process.ts on `file`: a script that starts the store's `thread`,
 * and whose last work is `await store.close()`. What it printed and its exit code (13 when the
 * close left its promise unsettled, with nothing else keeping the process alive).
 */
export async function closeInScript(
  thread: 'inbox' | 'schedule',
  file: string,
): Promise<{ code: number | null; stdout: string }> {
  const { code, stdout, stderr } = await runNode(['--import', 'tsx', closeScript, file, thread]);
  if (code !== 0) process.stderr.write(stderr);
  return { code, stdout: stdout.trim() };
}
