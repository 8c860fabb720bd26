import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { runCli } from './harness.js';
import { accounts, credentialEnv } from './sandbox-shop.js';

let database: TestDatabase;
let sandbox: Sandbox;
let url: string;
beforeAll(async () => {
  database = await createTestDatabase('reconcile_cli');
  sandbox = await createSandbox({
    autoSettle: false,
    seed: { accounts: [{ product: 'collection', ...accounts.collection }] },
  });
  url = await sandbox.listen({ port: 0 });
});
afterAll(async () => {
  await sandbox.close();
  await database.drop();
});

describe('pesakit reconcile --store postgres://…', () => {
  it('reconciles a PostgreSQL store named by URL; with the URL in PESAKIT_STORE too', async () => {
    const store = await PostgresReferenceStore.open(database.url);
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl: url,
      credentials: accounts,
      store,
    });
    const paid = await pesakit.collection.initiateMno({ amount: 9_000, msisdn: '255754111222' });
    const failed = await pesakit.collection.initiateMno({ amount: 9_100, msisdn: '255754111223' });
    const control = (body: unknown) =>
      fetch(`${url}/api/sandbox/_control/collection/settle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await control({ ref_id: paid.controlNumber, outcome: 'success' });

    const byArgv = await runCli(
      ['reconcile', '--once', '--all', '--store', database.url, '-e', 'sandbox', '--json'],
      credentialEnv(url),
    );
    expect(byArgv.stderr).toBe('');
    expect(byArgv.code).toBe(0);
    expect(JSON.parse(byArgv.stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({
      checked: 2,
      settled: 1,
      pending: 1,
    });

    await control({ ref_id: failed.controlNumber, outcome: 'failed' });
    const byEnv = await runCli(['reconcile', '--once', '--all', '-e', 'sandbox', '--json'], {
      ...credentialEnv(url),
      PESAKIT_STORE: database.url,
    });
    expect(byEnv.code).toBe(0);
    expect(JSON.parse(byEnv.stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({ failed: 1 });

    expect((await store.records.get(paid.merchantReference))?.status).toBe('success');
    expect((await store.records.get(failed.merchantReference))?.status).toBe('failed');
    await store.close();
  }, 60_000);
});
