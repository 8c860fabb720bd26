/** `pesakit/postgres`: the store in PostgreSQL (optional peers `pg`, `kysely`). */
export {
  PostgresReferenceStore,
  type PostgresReferenceStoreOptions,
} from './references/postgres-store.js';
