import type pg from 'pg';

/**
 * Keeps a connection the server drops while pesakit has it checked out (inside a store call)
 * from crashing the process. pg emits 'error' on that client and leaves it without a listener
 * while it is out of the pool, and an unhandled 'error' is a crash in Node. The query in flight
 * fails on its own (its caller sees the error), the pool discards the broken client on release,
 * and the next call connects afresh — so the event only needs a listener. Also on a pool passed
 * in: the client is checked out by pesakit's call, so keeping that call from crashing the
 * process is ours.
 *
 * The guard is one `acquire` listener per pool, however many stores are open on it (one per
 * schema, or re-opened in tests): a listener per store piled up to Node's
 * MaxListenersExceededWarning. It is removed when the last of them closes.
 */
const storesByPool = new WeakMap<pg.Pool, number>();

/** One more store on `pool`: the first adds the pool's `acquire` listener. */
export function guardPool(pool: pg.Pool): void {
  const stores = storesByPool.get(pool) ?? 0;
  if (stores === 0) pool.on('acquire', listenForErrors);
  storesByPool.set(pool, stores + 1);
}

/**
 * One store fewer on `pool`: the last removes the listener. Connections it already reached
 * keep their no-op 'error' listener — a call of a store closing may still hold one.
 */
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

/** Gives a checked-out client an 'error' listener, once. */
function listenForErrors(client: pg.PoolClient): void {
  if (listening.has(client)) return;
  listening.add(client);
  client.on('error', () => {});
}
