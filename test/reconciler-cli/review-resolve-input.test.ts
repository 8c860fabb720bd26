import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReviewResolve } from '../../src/cli/reconcile/run-review.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { collectionInReview } from '../helpers/in-review.js';
import { captureIo } from '../reconciler-cli/harness.js';

// Checks `pesakit review resolve`: docs/reconciler.md promises that a
// usage error exits 2 *before the store is opened*, and keeps exit 1 for a run that failed or a
// record that cannot be resolved. A note longer than the store keeps (1000 characters — a
// pasted email thread) or a `--by` over 200 was only found by the store: exit 1, "StoreInputError:
// resolve: note must be …" — a person's typing reported as a broken run, after opening the store.

let directory: string;
let file: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'pesakit-resolve-input-'));
  file = join(directory, 'payments.sqlite');
  const store = await SqliteReferenceStore.open(file);
  await collectionInReview(store, 'order-1');
  await store.close();
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

async function statusOf(reference: string): Promise<string | undefined> {
  const store = await SqliteReferenceStore.open(file);
  try {
    return (await store.records.get(reference))?.status;
  } finally {
    await store.close();
  }
}

const base = () => ({
  store: file,
  storeFromArgv: true,
  merchantReference: 'order-1',
  status: 'success',
});

describe('pesakit review resolve: a note or name the store cannot keep is a usage error', () => {
  it('a --note over 1000 characters: exit 2 naming --note and the limit, nothing changed', async () => {
    const io = captureIo();
    const code = await runReviewResolve({ ...base(), note: 'x'.repeat(1001) }, io);
    expect(code).toBe(2);
    expect(io.err.text).toMatch(/--note must be at most 1000 characters/);
    expect(io.err.text).not.toMatch(/StoreInputError/);
    expect(await statusOf('order-1')).toBe('needs_review');
  });

  it('a --by over 200 characters: exit 2 naming --by, nothing changed', async () => {
    const io = captureIo();
    const code = await runReviewResolve({ ...base(), note: 'checked', by: 'y'.repeat(201) }, io);
    expect(code).toBe(2);
    expect(io.err.text).toMatch(/--by must be at most 200 characters/);
    expect(await statusOf('order-1')).toBe('needs_review');
  });

  it('within the limits it resolves (exit 0)', async () => {
    const io = captureIo();
    const code = await runReviewResolve(
      { ...base(), note: 'x'.repeat(1000), by: 'y'.repeat(200) },
      io,
    );
    expect(code).toBe(0);
    expect(await statusOf('order-1')).toBe('success');
  });
});
