import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept: the store issues a few dozen shapes (an `in (…)` list per length). */
const limit = 256;

/**
 * The database as Kysely's SQLite dialect sees it, with each SQL text prepared once and reused.
 * Kysely prepares every query afresh; compiling the SQL was the largest CPU cost of a store
 * write (a money call makes about eight statements), well above running it. Least recently
 * used statements beyond `limit` are dropped; one still being iterated (`busy`, a streamed
 * select) is never handed out twice, a fresh one is prepared instead. better-sqlite3
 * re-prepares a cached statement by itself when a migration changes the schema.
 */
export function withStatementCache(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached !== undefined && !cached.busy) {
        // Re-inserted, so the map's order is least recently used first.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      if (cached === undefined) {
        statements.set(sql, statement);
        if (statements.size > limit) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      return statement;
    },
  };
}
