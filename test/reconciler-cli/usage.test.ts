import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/cli/reconcile/run-reconcile.js';
import { captureIo, runCli, temporaryDirectory } from './harness.js';

const directory = temporaryDirectory();
afterAll(() => directory.remove());
const storePath = join(directory.path, 'exists.sqlite');
writeFileSync(storePath, '');

const credentials = {
  PESAKIT_COLLECTION_EMAIL: 'shop@example.tz',
  PESAKIT_COLLECTION_PASSWORD: 'sandbox-pass',
};

async function usage(flags: Record<string, unknown>, env: Record<string, string> = credentials) {
  const io = captureIo(env);
  const code = await runReconcile(
    { environment: 'sandbox', baseUrl: 'http://127.0.0.1:9', storeFromArgv: true, ...flags },
    io,
  );
  return { code, stderr: io.err.text, stdout: io.out.text };
}

describe('pesakit reconcile: a wrong command line exits 2 and touches nothing', () => {
  it('refuses --once with --watch', async () => {
    const run = await usage({ once: true, watch: true, store: storePath });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/--once and --watch/);
  });

  it('refuses --all with --watch', async () => {
    const run = await usage({ watch: true, all: true, store: storePath });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--all .* --once/);
  });

  it('asks for a store when neither --store nor PESAKIT_STORE is given', async () => {
    const run = await usage({});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--store .*PESAKIT_STORE/);
  });

  it('refuses a SQLite path that does not exist (a typo must not look like a quiet night)', async () => {
    const missing = join(directory.path, 'typo.sqlite');
    const run = await usage({ store: missing });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${missing}: no such SQLite file`);
  });

  it('refuses a PostgreSQL URL with a password on the command line, without echoing it', async () => {
    const run = await usage({ store: 'postgres://app:hunter2@127.0.0.1/payments' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/PGPASSWORD|PESAKIT_STORE/);
    expect(run.stderr).not.toContain('hunter2');
  });

  it('refuses half a credential pair, naming the missing variable', async () => {
    const run = await usage({ store: storePath }, { PESAKIT_DISBURSEMENT_EMAIL: 'ops@example.tz' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PESAKIT_DISBURSEMENT_PASSWORD is not set');
  });

  it('refuses to run with no credentials at all', async () => {
    const run = await usage({ store: storePath }, {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/No credentials in the environment/);
  });

  it('refuses a --base-url that is not a URL before opening the store', async () => {
    const run = await usage({ store: storePath, baseUrl: 'not a url' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/baseUrl/);
  });

  it('needs an address for the sandbox, and per-product hosts for production', async () => {
    const sandbox = await usage({ store: storePath, baseUrl: undefined });
    expect(sandbox.code).toBe(2);
    expect(sandbox.stderr).toMatch(/--base-url .*PESAKIT_BASE_URL/);
    const production = await usage({ store: storePath, environment: 'production' });
    expect(production.code).toBe(2);
    expect(production.stderr).toContain('PESAKIT_COLLECTION_BASE_URL');
  });
});

describe('pesakit reconcile on the command line (a separate process)', () => {
  it('refuses a password flag and says which environment variable to use, exit 2', async () => {
    const run = await runCli(
      ['reconcile', '--store', storePath, '-e', 'sandbox', '--password', 's3cret-value'],
      credentials,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--password is refused.*PESAKIT_COLLECTION_EMAIL/s);
    expect(run.stderr).not.toContain('s3cret-value');
  });

  it("exits 2 (not commander's 1) on an unknown option, a bad choice and a missing --environment", async () => {
    const runs = await Promise.all([
      runCli(['reconcile', '--store', storePath, '-e', 'sandbox', '--no-such-flag'], credentials),
      runCli(['reconcile', '--store', storePath, '-e', 'staging'], credentials),
      runCli(['reconcile', '--store', storePath], credentials),
      runCli(
        ['reconcile', '--store', storePath, '-e', 'sandbox', '--concurrency', '0'],
        credentials,
      ),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2]);
    expect(runs[1]?.stderr).toMatch(/staging/);
    expect(runs[2]?.stderr).toMatch(/--environment/);
    expect(runs[3]?.stderr).toMatch(/--concurrency must be a whole number/);
  });

  it('review resolve without --note or with a bad decision exits 2', async () => {
    const runs = await Promise.all([
      runCli(['review', 'resolve', 'ORDER-1', 'success', '--store', storePath]),
      runCli(['review', 'resolve', 'ORDER-1', 'paid', '--note', 'checked', '--store', storePath]),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2]);
    expect(runs[0]?.stderr).toMatch(/--note/);
    expect(runs[1]?.stderr).toMatch(/success or failed/);
  });
});
