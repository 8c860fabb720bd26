/**
 * `pesakit/sqlite`: the reference store in a SQLite file. Needs the optional peers
 * `better-sqlite3` and `kysely`.
 */
export {
  SqliteReferenceStore,
  type SqliteReferenceStoreOptions,
} from './references/sqlite-store.js';
