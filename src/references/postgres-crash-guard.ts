import type pg from 'pg';

/**
 * pg leaves a checked-out client without an 'error' listener: a connection dropped inside a store
 * call would crash the process. One `acquire` listener per pool, however many stores share it.
 */
const storesByPool = new WeakMap<pg.Pool, number>();

export function guardPool(pool: pg.Pool): void {
  const stores = storesByPool.get(pool) ?? 0;
  if (stores === 0) pool.on('acquire', listenForErrors);
  storesByPool.set(pool, stores + 1);
}

/** The last store removes the listener; clients keep theirs (a closing call may hold one). */
export function unguardPool(pool: pg.Pool): void {
  const stores = storesByPool.get(pool) ?? 0;
  if (stores <= 1) {
    storesByPool.delete(pool);
    pool.off('acquire', listenForErrors);
  } else {
    storesByPool.set(pool, stores - 1);
  }
}

const listening = new WeakSet<pg.PoolClient>();

function listenForErrors(client: pg.PoolClient): void {
  if (listening.has(client)) return;
  listening.add(client);
  client.on('error', () => {});
}
