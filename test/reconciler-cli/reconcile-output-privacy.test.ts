import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/cli/reconcile/run-reconcile.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fund, lostAnswer } from '../reconciler/helpers.js';
import { captureIo, temporaryDirectory } from '../reconciler-cli/harness.js';

// Checks docs/reconciler.md: "Lines never carry payloads, phone numbers
// or secrets" — output of a cron job lands in mail and log pipelines. A review verdict's
// message names the MSISDN for a person reading the record (`reports.review`, onReview), and
// the CLI printed that message as is. An airtime sale whose answer was lost goes to review
// (ambiguous_evidence) on the first pass: its line must not carry the number.

const msisdn = '255754123456';
let harness: Harness;
const directory = temporaryDirectory();
/** One store per output format, each with its own lost airtime sale. */
const storePaths = {
  plain: join(directory.path, 'plain.sqlite'),
  json: join(directory.path, 'json.sqlite'),
};

beforeAll(async () => {
  harness = await startHarness();
  await fund(harness, 'airtime', 100_000);
  for (const path of Object.values(storePaths)) {
    const store = await SqliteReferenceStore.open(path);
    await lostAnswer(harness, 'airtime', store, (client, fast) =>
      client.airtime.purchase(
        { amount: 2_000, msisdn },
        { merchantReference: 'air-lost', ...fast },
      ),
    );
    await store.close();
  }
});
afterAll(async () => {
  await harness.close();
  directory.remove();
});

const env = {
  PESAKIT_AIRTIME_EMAIL: accounts.airtime.email,
  PESAKIT_AIRTIME_PASSWORD: accounts.airtime.password,
};

describe('pesakit reconcile: review lines without phone numbers', () => {
  it.each([false, true])('--json %s', async (json) => {
    const io = captureIo(env);
    const code = await runReconcile(
      {
        once: true,
        all: true,
        json,
        store: json ? storePaths.json : storePaths.plain,
        storeFromArgv: true,
        environment: 'sandbox',
        baseUrl: harness.url,
      },
      io,
    );
    const output = `${io.out.text}${io.err.text}`;
    // The pass moves the record to needs_review and prints its review line.
    expect(code).toBe(3);
    expect(output).toContain('air-lost');
    expect(output).toContain('ambiguous_evidence');
    expect(output).not.toContain(msisdn);
    expect(output).not.toContain(accounts.airtime.password);
    // Still useful to a person: the last digits say which customer, the record has the rest.
    expect(output).toMatch(/255\*{6}456/);
  });
});
