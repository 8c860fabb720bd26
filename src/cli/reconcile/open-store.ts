import { existsSync } from 'node:fs';
import type { ReferenceStore } from '../../references/index.js';
import { exitCodes } from '../exit-codes.js';
import { errorMessage, type ReporterStreams } from '../output.js';
import { UsageError } from './usage-error.js';

export type StoreLocation =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; schema: string };

const postgresScheme = /^postgres(ql)?:\/\//i;

/** `postgres(ql)://` is PostgreSQL, else an existing SQLite path; only the env may carry a password. */
export function parseStoreLocation(
  value: string,
  fromArgv: boolean,
  schema = 'public',
): StoreLocation {
  if (postgresScheme.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`--store ${redactStoreUrl(value)} is not a valid PostgreSQL URL.`);
    }
    if (fromArgv && carriesPassword(url)) {
      throw new UsageError(
        '--store carries a password, which would leak through ps and shell history: pass the ' +
          'URL without it and set PGPASSWORD, or put the whole URL in PESAKIT_STORE.',
      );
    }
    return { kind: 'postgres', url: value, schema };
  }
  if (value === '' || !existsSync(value)) {
    throw new UsageError(
      `--store ${value === '' ? '(empty)' : value}: no such SQLite file. Give the file your ` +
        'application writes (SqliteReferenceStore.open) or a postgres:// URL.',
    );
  }
  return { kind: 'sqlite', path: value };
}

/** libpq and `pg` also take `?password=` and `?sslpassword=`: both count as a password. */
const passwordParameters = ['password', 'sslpassword'];

function carriesPassword(url: URL): boolean {
  return url.password !== '' || passwordParameters.some((name) => url.searchParams.has(name));
}

/** The store location fit for logs: a URL's passwords (userinfo and query) replaced by `***`. */
export function redactStoreUrl(value: string): string {
  return value
    .replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, '$1***@')
    .replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***');
}

export function describeStore(location: StoreLocation): string {
  return location.kind === 'sqlite' ? location.path : redactStoreUrl(location.url);
}

/** Opens the store; `pg` is loaded only for PostgreSQL. */
export async function openStore(location: StoreLocation): Promise<ReferenceStore> {
  if (location.kind === 'sqlite') {
    const { SqliteReferenceStore } = await import('../../references/sqlite-store.js');
    return SqliteReferenceStore.open(location.path);
  }
  const { PostgresReferenceStore } = await import('../../references/postgres-store.js');
  await requireExistingSchema(location);
  return PostgresReferenceStore.open(location.url, { schema: location.schema });
}

/** A schema that holds no store would be created empty and report success: the CLI never creates one. */
async function requireExistingSchema(location: { url: string; schema: string }): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: location.url });
  client.on('error', () => {});
  await client.connect();
  let present: boolean;
  try {
    const table = `"${location.schema.replaceAll('"', '""')}".pesakit_transactions`;
    const result = await client.query<{ present: boolean }>(
      'SELECT to_regclass($1) IS NOT NULL AS present',
      [table],
    );
    present = result.rows[0]?.present === true;
  } finally {
    await client.end().catch(() => {});
  }
  if (!present) {
    throw new UsageError(
      `--store ${redactStoreUrl(location.url)}: schema "${location.schema}" holds no pesakit store. ` +
        'Name the schema your application opens (--schema or PESAKIT_STORE_SCHEMA; default public).',
    );
  }
}

export interface StoreFlags {
  store?: string;
  /** A PostgreSQL store's schema (`--schema`, `PESAKIT_STORE_SCHEMA`). @default 'public' */
  schema?: string;
  storeFromArgv: boolean;
}

/** Checks first (a wrong command line changes nothing), then `work` on the store, always closed. */
export async function withStore(
  command: string,
  flags: StoreFlags,
  io: ReporterStreams,
  check: () => void,
  work: (store: ReferenceStore, location: StoreLocation) => Promise<number>,
): Promise<number> {
  let store: ReferenceStore | undefined;
  try {
    check();
    if (flags.store === undefined) {
      throw new UsageError(
        'Which store? Pass --store ./payments.sqlite (or a postgres:// URL), or set PESAKIT_STORE.',
      );
    }
    const location = parseStoreLocation(flags.store, flags.storeFromArgv, flags.schema);
    try {
      store = await openStore(location);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.err.write(
        `pesakit ${command}: cannot open the store ${describeStore(location)}: ${errorMessage(error)}\n`,
      );
      return exitCodes.runError;
    }
    return await work(store, location);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err.write(`pesakit ${command}: ${error.message}\n`);
      return exitCodes.usage;
    }
    io.err.write(`pesakit ${command}: ${errorMessage(error)}\n`);
    return exitCodes.runError;
  } finally {
    await store?.close();
  }
}
