// The merchant's own table: one row appended each time a handler runs, in the same database as
// the store. It has no unique key on purpose: a handler that runs twice leaves two rows.
import Database from 'better-sqlite3';
import pg from 'pg';
import type { StoreKind } from './options.js';

export interface HandlerRun {
  id: number;
  merchantReference: string;
  handler: string;
  status: string;
  /** The process start that ran it (`merchant-1#3`). */
  instance: string;
  /** When it ran (ms since the epoch). */
  at: number;
}

export interface HandlerRuns {
  append(run: Omit<HandlerRun, 'id'>): Promise<void>;
  all(): Promise<HandlerRun[]>;
  close(): Promise<void>;
}

const table = 'soak_handler_runs';

export async function openHandlerRuns(store: StoreKind, location: string): Promise<HandlerRuns> {
  return store === 'sqlite' ? sqliteRuns(location) : await postgresRuns(location);
}

function sqliteRuns(file: string): HandlerRuns {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // Durable across a killed process (the soak's fault) without an fsync per row.
  db.pragma('synchronous = NORMAL');
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${table} (id INTEGER PRIMARY KEY AUTOINCREMENT,
      merchant_reference TEXT NOT NULL, handler TEXT NOT NULL, status TEXT NOT NULL,
      instance TEXT NOT NULL, at INTEGER NOT NULL)`,
  );
  const insert = db.prepare(
    `INSERT INTO ${table} (merchant_reference, handler, status, instance, at)
     VALUES (@merchantReference, @handler, @status, @instance, @at)`,
  );
  return {
    append: async (run) => {
      insert.run(run);
    },
    all: async () =>
      db
        .prepare(
          `SELECT id, merchant_reference AS merchantReference, handler, status, instance, at
           FROM ${table} ORDER BY id`,
        )
        .all() as HandlerRun[],
    close: async () => {
      db.close();
    },
  };
}

async function postgresRuns(url: string): Promise<HandlerRuns> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A restart of the server drops idle connections: unhandled, that 'error' would end the process.
  pool.on('error', () => {});
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${table} (id BIGSERIAL PRIMARY KEY,
      merchant_reference TEXT NOT NULL, handler TEXT NOT NULL, status TEXT NOT NULL,
      instance TEXT NOT NULL, at BIGINT NOT NULL)`,
  );
  return {
    append: async (run) => {
      await pool.query(
        `INSERT INTO ${table} (merchant_reference, handler, status, instance, at)
         VALUES ($1, $2, $3, $4, $5)`,
        [run.merchantReference, run.handler, run.status, run.instance, run.at],
      );
    },
    all: async () => {
      const { rows } = await pool.query<{
        id: string;
        merchant_reference: string;
        handler: string;
        status: string;
        instance: string;
        at: string;
      }>(`SELECT * FROM ${table} ORDER BY id`);
      return rows.map((row) => ({
        id: Number(row.id),
        merchantReference: row.merchant_reference,
        handler: row.handler,
        status: row.status,
        instance: row.instance,
        at: Number(row.at),
      }));
    },
    close: () => pool.end(),
  };
}
