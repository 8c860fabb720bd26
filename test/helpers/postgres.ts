import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * A fresh, empty database on the run's PostgreSQL server, so that test files running in
 * parallel never see each other's tables. `drop` removes it (closing any leftover sessions).
 */
export async function createTestDatabase(
  label: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const serverUrl = inject('postgresUrl');
  const name = `pesakit_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await withAdmin(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(serverUrl, (client) =>
        client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ),
  };
}

async function withAdmin(
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
