import { existsSync } from 'node:fs';
import { parseStoreLocation, type StoreLocation } from '../reconcile/open-store.js';
import { UsageError } from '../reconcile/usage-error.js';

const postgresScheme = /^postgres(ql)?:\/\//i;

/** A resumed batch (`--batch-id`) must find its file: an empty store would pay everyone again. */
export function bulkStoreLocation(
  value: string,
  fromArgv: boolean,
  resuming: boolean,
): StoreLocation {
  if (postgresScheme.test(value) || existsSync(value)) return parseStoreLocation(value, fromArgv);
  if (resuming) {
    throw new UsageError(
      `--store ${value}: no such SQLite file, and --batch-id resumes a batch whose records are in ` +
        'a store. Give the store the batch started with (a new, empty store would send every row ' +
        'again), or leave --batch-id out to start a new batch.',
    );
  }
  if (value === '')
    throw new UsageError('--store is empty: name a SQLite file or a postgres:// URL.');
  return { kind: 'sqlite', path: value };
}
