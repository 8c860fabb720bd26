import type Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Enough for every statement the store writes; `in (?, ?, …)` lists of other lengths age out. */
const CACHED_STATEMENTS = 256;

/**
 * The handle Kysely is given: better-sqlite3 compiles a statement on every `prepare`, and Kysely
 * prepares on every query, so compiled statements are kept by their text and reused. A statement
 * still being iterated (a stream) is busy and cannot run again; its text gets a fresh one.
 */
export function reusingStatements(database: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql);
      if (cached !== undefined && !cached.busy) {
        // Map order is insertion order: re-inserting keeps the least recently used first.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      if (cached === undefined) {
        statements.set(sql, statement);
        if (statements.size > CACHED_STATEMENTS) {
          statements.delete(statements.keys().next().value as string);
        }
      }
      return statement;
    },
  };
}
