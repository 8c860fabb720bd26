/**
 * docs/reconciler.md: "Memory stays flat: records are streamed from the store in keyset-paginated
 * batches", and docs/reconciler.md recommends `--max-old-space-size=128` for a reconcile
 * process. A forced pass over many records, in a process of its own with that limit: it must
 * finish, and the heap that survives a full collection must not grow with the records checked
 * (a pass that kept anything per record — the records, their answers, their evidence — would).
 * The RSS target itself (< 200 MB over 100,000 records) is measured by
 * bench/reconciler-memory.mjs, not here.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { runNode } from '../helpers/run-node.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { runtimeEnv, temporaryDirectory } from './harness.js';

const RECORDS = 8_000;
/** A leak of 200 bytes per record would add 1.2 MB between the first sample and the last. */
const MAX_GROWTH_BYTES = 1024 * 1024;

interface Sample {
  type: 'sample';
  checked: number;
  heapUsed: number;
}

let harness: Harness;
let directory: ReturnType<typeof temporaryDirectory>;
let file: string;

beforeAll(async () => {
  harness = await startHarness();
  directory = temporaryDirectory();
  file = join(directory.path, 'payments.sqlite');
  // One pending collection written by the SDK, then copied: each copy has its own merchant
  // reference and a control number the sandbox never issued, so its pull is a real round trip
  // answered "not found", and the record stays pending — the whole per-record path (lease,
  // pull, decide, check log, schedule) without creating thousands of payments first.
  const store = await SqliteReferenceStore.open(file);
  await harness
    .client({ store })
    .collection.initiateMno(
      { amount: 1000, msisdn: '255754000998' },
      { merchantReference: 'HEAP-0' },
    );
  await store.close();
  const database = new Database(file);
  const template = database.prepare('select * from pesakit_transactions').get() as Record<
    string,
    unknown
  >;
  const columns = Object.keys(template);
  const insert = database.prepare(
    `insert into pesakit_transactions (${columns.join(', ')}) values (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  database.transaction(() => {
    for (let index = 1; index < RECORDS; index++) {
      insert.run({
        ...template,
        merchant_reference: `HEAP-${index}`,
        control_number: `98${String(index).padStart(10, '0')}`,
        payment_reference: null,
      });
    }
  })();
  database.close();
}, 60_000);

afterAll(async () => {
  await harness?.close();
  directory?.remove();
});

describe('a forced pass over many records, with the recommended heap limit', () => {
  it('finishes, and keeps nothing per record checked', async () => {
    const run = await runNode(
      [
        '--expose-gc',
        '--max-old-space-size=128',
        '--import',
        'tsx',
        'test/reconciler-cli/fixtures/heap-worker.ts',
      ],
      {
        env: {
          ...runtimeEnv(),
          STORE_FILE: file,
          BASE_URL: harness.url,
          RECORDS: String(RECORDS),
        },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const done = lines.find((line) => line.type === 'done');
    expect(done.summary).toMatchObject({ checked: RECORDS, pending: RECORDS, errors: 0 });
    const samples: Sample[] = lines.filter((line) => line.type === 'sample');
    expect(samples.length).toBeGreaterThanOrEqual(8);
    // From the first sample (1/8 of the pass: everything warmed up) to the highest one while
    // the pass runs: something kept per record until the pass ends counts as well as a leak.
    const first = samples[0] as Sample;
    const during = samples.filter((sample) => sample.checked < RECORDS);
    expect((during.at(-1) as Sample).checked - first.checked).toBeGreaterThanOrEqual(RECORDS * 0.7);
    const growth = Math.max(...during.map((sample) => sample.heapUsed)) - first.heapUsed;
    expect(growth, `heap after GC: ${samples.map((s) => s.heapUsed).join(', ')}`).toBeLessThan(
      MAX_GROWTH_BYTES,
    );
  }, 180_000);
});
