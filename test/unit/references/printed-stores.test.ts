import { inspect } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { Pesakit } from '../../../src/client.js';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { MemoryReferenceStore, type ReferenceStore } from '../../../src/references/index.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { temporarySqliteFiles } from '../../helpers/sqlite-file-store.js';

// Loggers print the objects they are given (`log.info({ pesakit })`, `console.log(store)`).
// Whatever the client and its store keep — passwords, bearer tokens, a connection string's
// password — is in #private fields, which neither JSON.stringify nor inspect reads. This
// holds it: a secret moved to a plain field fails here.

const password = 'sandbox-pass-secret-1';
const token = 'airtime-token-secret-2';
const databasePassword = 'db-password-secret-3';
const nextFile = temporarySqliteFiles('printed');
let database: TestDatabase | undefined;
const stores: ReferenceStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  await database?.drop();
});

async function postgresWithPassword(): Promise<ReferenceStore> {
  database ??= await createTestDatabase('printed');
  // The test server trusts local connections: the password is sent to nobody, only kept.
  const url = new URL(database.url);
  url.password = databasePassword;
  return PostgresReferenceStore.open(url.toString(), { maxConnections: 1 });
}

const opens: Record<string, () => Promise<ReferenceStore>> = {
  memory: async () => new MemoryReferenceStore(),
  SQLite: () => SqliteReferenceStore.open(nextFile()),
  PostgreSQL: postgresWithPassword,
};

describe.each(Object.keys(opens))('a client on the %s store, printed', (kind) => {
  it('shows no password, token or connection-string password', async () => {
    const store = await opens[kind]!();
    stores.push(store);
    const pesakit = new Pesakit({
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:9',
      credentials: { collection: { email: 'shop@example.co.tz', password } },
      store,
    });
    pesakit.setToken('airtime', token);
    pesakit.on('request', () => {});
    for (const printed of [
      JSON.stringify(pesakit),
      JSON.stringify(store),
      inspect(pesakit, { depth: 20, showHidden: true }),
      inspect(store, { depth: 20, showHidden: true }),
    ]) {
      for (const secret of [password, token, databasePassword]) {
        expect(printed).not.toContain(secret);
      }
    }
  });
});
