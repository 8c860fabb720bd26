import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReviewList } from '../../src/cli/reconcile/run-review.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { collectionInReview } from '../helpers/in-review.js';
import { captureIo } from '../reconciler-cli/harness.js';

// Checks `pesakit review list`, which docs/reconciler.md and its own help
// describe as "a table, oldest first": a person working the queue takes the longest-waiting
// record first. It listed by merchant reference instead (the store's keyset order), so a record
// waiting for days sat below any newer one whose reference sorts first — and with `--limit` it
// was not shown at all.

let directory: string;
let file: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'pesakit-review-order-'));
  file = join(directory, 'payments.sqlite');
  const store = await SqliteReferenceStore.open(file);
  // Sent to review in this order: b-oldest, then c-middle, then a-newest.
  for (const reference of ['b-oldest', 'c-middle', 'a-newest']) {
    await collectionInReview(store, reference);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  await store.close();
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

const order = (text: string) =>
  [...text.matchAll(/\b([abc]-(?:newest|oldest|middle))\b/g)].map((match) => match[1]);

describe('pesakit review list: oldest first, as documented', () => {
  it('the table lists the longest-waiting record first', async () => {
    const io = captureIo();
    expect(await runReviewList({ store: file, storeFromArgv: true }, io)).toBe(3);
    expect(order(io.out.text)).toEqual(['b-oldest', 'c-middle', 'a-newest']);
  });

  it('--json lines come in the same order', async () => {
    const io = captureIo();
    expect(await runReviewList({ store: file, storeFromArgv: true, json: true }, io)).toBe(3);
    expect(io.out.lines().map((line) => JSON.parse(line).merchantReference)).toEqual([
      'b-oldest',
      'c-middle',
      'a-newest',
    ]);
  });

  it('--limit 1 shows the oldest, not the first by reference', async () => {
    const io = captureIo();
    expect(await runReviewList({ store: file, storeFromArgv: true, limit: 1 }, io)).toBe(3);
    expect(order(io.out.text)).toEqual(['b-oldest']);
  });
});
