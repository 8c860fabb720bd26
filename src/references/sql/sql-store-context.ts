import type { Kysely } from 'kysely';
import { PesakitError } from '../../errors/pesakit-error.js';
import { type SqlDialectName, type StoreDatabase, toInstant } from './table.js';

/** What every part of the SQL store works with: the database once checked open, dialect, clock. */
export class SqlStoreContext {
  /** The database unchecked: only to explain an error its checked use already threw. */
  readonly database: Kysely<StoreDatabase>;
  readonly dialect: SqlDialectName;
  readonly now: () => Date;
  #closed = false;
  constructor(database: Kysely<StoreDatabase>, dialect: SqlDialectName, now: () => Date) {
    this.database = database;
    this.dialect = dialect;
    this.now = now;
  }
  get closed(): boolean {
    return this.#closed;
  }
  close(): void {
    this.#closed = true;
  }
  open(): Kysely<StoreDatabase> {
    if (this.#closed) {
      throw new PesakitError('This reference store is closed; open a new one to keep using it.');
    }
    return this.database;
  }
  instant(value: Date): Date | string {
    return toInstant(this.dialect, value);
  }
}
