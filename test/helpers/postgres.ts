import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** A database created for one test file (give each store in it its own `schema`). */
export interface TestDatabase {
  url: string;
  /** Drops the database, closing any sessions still connected. */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database on the run's PostgreSQL server (see postgres-global-setup.ts), so
 * that test files running in parallel never see each other's tables.
 */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const name = `pesakit_${identifier(label)}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  return {
    url: databaseUrl,
    drop: () =>
      withClient(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ),
  };
}

function identifier(label: string): string {
  return label.replace(/[^a-z0-9_]/gi, '_').toLowerCase();
}

async function withClient(
  url: string,
  work: (client: pg.Client) => Promise<unknown>,
): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
