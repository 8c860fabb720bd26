import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { moves } from '../../helpers/moves.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

// A merchant whose database restarts or fails over: a connection
// the server drops while pesakit has it checked out (inside a store call) emitted 'error' on
// a pg client nobody listened to — Node's rule for an unhandled 'error' event is to crash the
// process, so a database failover took the merchant's application server down with it. The
// call in flight must fail, and the store must go on with a fresh connection.

let database: TestDatabase;
let admin: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('connection_drop');
  admin = new pg.Client({ connectionString: database.url });
  admin.on('error', () => {});
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await database.drop();
});

/** Ends every session on the test database but the admin's own (what a failover does). */
async function dropStoreConnections(): Promise<number> {
  const result = await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  return result.rowCount ?? 0;
}

/** Waits until a session of the store is blocked on a lock: the call is inside its transaction. */
async function waitForLockWait(): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    const result = await admin.query(
      `SELECT 1 FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
    );
    if ((result.rowCount ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the store call never waited on the row lock');
}

describe.each(['connection string', 'pg.Pool passed in', 'pg.Pool another store closed'] as const)(
  'PostgresReferenceStore (%s): a connection dropped mid-call',
  (kind) => {
    it('fails that call, never crashes the process, and the next call works', async () => {
      const schema = {
        'connection string': 'drop_owned',
        'pg.Pool passed in': 'drop_pool',
        'pg.Pool another store closed': 'drop_shared',
      }[kind];
      const pool =
        kind === 'connection string' ? undefined : new pg.Pool({ connectionString: database.url });
      // The merchant's own pool keeps its own idle-client handler, as pg's docs ask.
      pool?.on('error', () => {});
      // The guard is one listener per pool: the other store's close must leave it in place.
      const other =
        kind === 'pg.Pool another store closed' && pool
          ? await PostgresReferenceStore.open(pool, { schema: 'drop_other' })
          : undefined;
      const store = await PostgresReferenceStore.open(pool ?? database.url, { schema });
      if (other) {
        await other.close();
        // Connections guarded so far keep their listener: end them, so that the call below
        // runs on a connection checked out after that close.
        await dropStoreConnections();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      try {
        await store.records.create({
          merchantReference: `${schema}-1`,
          product: 'collection',
          flow: 'mno',
          amount: 1000,
          msisdn: '255754123456',
        });
        // Hold the row so that the store's transition waits inside its transaction, with its
        // connection checked out of the pool.
        await admin.query('BEGIN');
        await admin.query(
          `SELECT 1 FROM "${schema}".pesakit_transactions WHERE merchant_reference = $1 FOR UPDATE`,
          [`${schema}-1`],
        );
        const transition = moves(store).transition(`${schema}-1`, 'pending', {
          reason: 'accepted',
        });
        const settled = transition.then(
          () => 'resolved',
          () => 'rejected',
        );
        await waitForLockWait();
        expect(await dropStoreConnections()).toBeGreaterThan(0);
        await admin.query('ROLLBACK');
        expect(await settled).toBe('rejected');
        // Give the dropped socket's own 'error' event time to be emitted (it was the crash).
        await new Promise((resolve) => setTimeout(resolve, 200));

        const after = await moves(store).transition(`${schema}-1`, 'pending', {
          reason: 'accepted',
        });
        expect(after.record.status).toBe('pending');
      } finally {
        await admin.query('ROLLBACK').catch(() => {});
        await store.close();
        await pool?.end();
      }
    });
  },
);
