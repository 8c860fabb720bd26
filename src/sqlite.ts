/** `pesakit/sqlite`: the store in a SQLite file (optional peers `better-sqlite3`, `kysely`). */
export {
  SqliteReferenceStore,
  type SqliteReferenceStoreOptions,
} from './references/sqlite-store.js';
