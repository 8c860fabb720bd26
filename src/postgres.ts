/**
 * `pesakit/postgres`: the reference store in PostgreSQL. Needs the optional peers `pg` and
 * `kysely`.
 */
export {
  PostgresReferenceStore,
  type PostgresReferenceStoreOptions,
} from './references/postgres-store.js';
