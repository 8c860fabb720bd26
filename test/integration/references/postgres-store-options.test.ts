import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConfigurationError } from '../../../src/index.js';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

// `PostgresReferenceStore.open(connection, { schema,
// maxConnections })` (docs/reference-store.md). Bad options were not refused as options:
// - `maxConnections: 0` opened a pool that can never hand out a connection: `open()` resolved
//   and the first store call waited forever (an application that hangs, no error anywhere);
// - a schema name over PostgreSQL's 63-byte identifier limit was silently truncated by the
//   server, so two stores given different long names shared one schema's tables;
// - an empty or non-string schema surfaced as "Could not migrate the reference store" with
//   Kysely's or pg's own message.
// Each is now a ConfigurationError naming the option, thrown before any connection is made.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('store_options');
});
afterAll(() => database.drop());

async function openError(options: Record<string, unknown>): Promise<unknown> {
  try {
    const store = await PostgresReferenceStore.open(database.url, options);
    await store.close();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function schemas(): Promise<string[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const result = await client.query<{ nspname: string }>(
      "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'shop%'",
    );
    return result.rows.map((row) => row.nspname);
  } finally {
    await client.end();
  }
}

describe('PostgresReferenceStore.open: bad options are a ConfigurationError naming them', () => {
  it.each([
    ['maxConnections', { maxConnections: 0 }],
    ['maxConnections', { maxConnections: 2.5 }],
    ['maxConnections', { maxConnections: '10' }],
    ['schema', { schema: '' }],
    ['schema', { schema: 5 }],
    ['schema', { schema: `shop_${'x'.repeat(60)}` }],
  ])('%s: %j', { timeout: 10_000 }, async (option, options) => {
    const error = await openError(options);
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe(option);
    expect((error as Error).message).toContain(option);
    expect(await schemas()).toEqual([]);
  });

  it('a connection that is neither a URL string nor a pg.Pool', async () => {
    let error: unknown;
    try {
      await PostgresReferenceStore.open(42 as unknown as string);
    } catch (caught) {
      error = caught;
    }
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('connection');
  });

  it('a schema of exactly 63 characters, and a quoted-looking one, still work', async () => {
    for (const schema of [`shop_${'y'.repeat(58)}`, 'shop "main"']) {
      const store = await PostgresReferenceStore.open(database.url, { schema, maxConnections: 1 });
      expect(await store.records.get('nothing')).toBeUndefined();
      await store.close();
    }
    expect((await schemas()).sort()).toEqual([`shop_${'y'.repeat(58)}`, 'shop "main"'].sort());
  });
});
