import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

// pesakit's crash guard (a no-op 'error' listener on every client its calls check out) hangs
// on the pool's 'acquire' event. It used to add one listener per open(): a merchant opening a
// store per schema on one pool, or re-opening stores in tests, piled them up until Node printed
// MaxListenersExceededWarning. It is one listener per pool now, gone when the last store closes.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('pool_listeners');
});
afterAll(async () => {
  await database.drop();
});

describe('PostgresReferenceStore on a pg.Pool passed in', () => {
  it('adds one acquire listener however many stores open on the pool, and no warning', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on('error', () => {});
    const merchantListener = () => {};
    pool.on('acquire', merchantListener);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const stores: PostgresReferenceStore[] = [];
    try {
      // More than Node's default of 10 listeners per event.
      for (let i = 0; i < 12; i += 1) {
        stores.push(await PostgresReferenceStore.open(pool, { schema: `listeners_${i % 3}` }));
      }
      expect(pool.listenerCount('acquire')).toBe(2); // the merchant's and pesakit's one

      // Every client checked out of the pool, by a store call or the merchant, is guarded.
      const client = await pool.connect();
      expect(client.listenerCount('error')).toBeGreaterThanOrEqual(1);
      client.release();

      for (const store of stores.splice(0, 11)) await store.close();
      expect(pool.listenerCount('acquire')).toBe(2);
      await stores[0]!.close(); // closing twice counts once
      await stores[0]!.close();
      expect(pool.listeners('acquire')).toEqual([merchantListener]);

      // Opening again after all closed guards the pool again.
      const again = await PostgresReferenceStore.open(pool, { schema: 'listeners_0' });
      expect(pool.listenerCount('acquire')).toBe(2);
      await again.close();
      expect(pool.listenerCount('acquire')).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      for (const store of stores) await store.close();
      await pool.end();
    }
  });

  it('takes its listener back when open() fails', async () => {
    // Nothing listens on port 9: the migration cannot connect, and open() rejects.
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:9/none', max: 1 });
    pool.on('error', () => {});
    await expect(PostgresReferenceStore.open(pool)).rejects.toThrow();
    expect(pool.listenerCount('acquire')).toBe(0);
    await pool.end();
  });
});
