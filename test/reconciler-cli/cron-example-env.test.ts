import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { runNode } from '../helpers/run-node.js';
import { runtimeEnv, temporaryDirectory } from '../reconciler-cli/harness.js';

// Following examples/cron-reconciler/README.md: its table
// says a product's `_EMAIL` / `_PASSWORD` are left "both unset to skip", and exit 2 means "the
// environment is incomplete". With only one of the two set (a typo in the variable's name, a
// secret that did not load), the job skipped the product silently: `checked: 0`, exit 0, every
// payment of that product never reconciled while cron saw success. And a PESAKIT_STORE that
// does not exist ended in better-sqlite3's stack trace rather than a sentence.

let directory: { path: string; remove: () => void };
let storeFile: string;
beforeEach(async () => {
  directory = temporaryDirectory();
  storeFile = join(directory.path, 'shop.sqlite');
  await (await SqliteReferenceStore.open(storeFile)).close();
});
afterEach(() => directory.remove());

const runJob = (env: Record<string, string>) =>
  runNode(['--import', 'tsx', 'examples/cron-reconciler/reconcile-job.ts'], {
    // Nothing is called before the environment is checked: no sandbox is needed.
    env: { ...runtimeEnv(), PESAKIT_BASE_URL: 'http://127.0.0.1:9', ...env },
  });

describe('examples/cron-reconciler with an incomplete environment', () => {
  it.each([
    ['COLLECTION', 'PESAKIT_COLLECTION_EMAIL', 'PESAKIT_COLLECTION_PASSWORD'],
    ['AIRTIME', 'PESAKIT_AIRTIME_PASSWORD', 'PESAKIT_AIRTIME_EMAIL'],
    ['DISBURSEMENT', 'PESAKIT_DISBURSEMENT_EMAIL', 'PESAKIT_DISBURSEMENT_PASSWORD'],
  ])(
    '%s with one of email and password exits 2 naming the missing one',
    async (_p, set, missing) => {
      const run = await runJob({ PESAKIT_STORE: storeFile, [set]: 'shop@example.co.tz' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(missing);
      expect(run.stdout).toBe('');
    },
  );

  it('a PESAKIT_STORE that does not exist exits 2 with a sentence naming it', async () => {
    const missingFile = join(directory.path, 'nowhere.sqlite');
    const run = await runJob({ PESAKIT_STORE: missingFile });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(missingFile);
    expect(run.stderr).not.toMatch(/at new Database|SqliteError/);
  });
});
