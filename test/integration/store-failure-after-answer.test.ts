import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AmbiguousOutcomeError,
  isAmbiguousOutcomeError,
  isStoreError,
  StoreError,
} from '../../src/errors/index.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import type { ReferenceStore } from '../../src/references/index.js';
import type { RecordMove } from '../../src/references/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';

// The platform answered a money call, then writing its answer to the store failed (SQLite busy
// past its timeout). Money may have moved: the caller must see an AmbiguousOutcomeError with
// the merchant reference and the platform's answer, never the raw SqliteError, which reads as
// "nothing happened" and invites a resend that pays twice.

let harness: Harness;
let directory: string;
beforeAll(async () => {
  harness = await startHarness();
  directory = mkdtempSync(join(tmpdir(), 'pesakit-store-failure-'));
});
afterAll(async () => {
  await harness.close();
  rmSync(directory, { recursive: true, force: true });
});

/**
 * The SqliteError better-sqlite3 throws when another connection holds the write lock and the
 * busy timeout has run out: a real one, made by two connections to the same file.
 */
function busyError(file: string): unknown {
  const holder = new Database(file);
  const waiter = new Database(file, { timeout: 0 });
  holder.exec('BEGIN IMMEDIATE');
  try {
    waiter.exec('BEGIN IMMEDIATE');
    return undefined;
  } catch (error) {
    return error;
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
    waiter.close();
  }
}

/** `store`, except that committing an answer throws `error`, as a busy database would. */
function failingAnswerWrites(store: ReferenceStore, error: unknown): ReferenceStore {
  // The answer's commit: the references the platform gave, with the status they prove.
  const move = (reference: string, given: RecordMove) =>
    given.references === undefined ? store.records.move(reference, given) : Promise.reject(error);
  return { ...store, records: { ...store.records, move }, close: () => store.close() };
}

describe('A store write that fails after the platform answered a money call', () => {
  it('is an AmbiguousOutcomeError with the reference, the answer and the store error as cause', async () => {
    const file = join(directory, 'busy.sqlite');
    const store = await SqliteReferenceStore.open(file);
    try {
      const busy = busyError(file);
      expect((busy as { code?: string }).code).toBe('SQLITE_BUSY');
      await harness.control('wallets/credit', {
        product: 'airtime',
        email: 'airtime@duka.co.tz',
        amount: 5_000,
      });
      const pesakit = harness.client({ store: failingAnswerWrites(store, busy) });
      const events: Error[] = [];
      pesakit.on('error', (event) => events.push(event.error));

      const error = await pesakit.airtime
        .purchase({ msisdn: '255754123456', amount: 1_000 }, { merchantReference: 'sale-busy' })
        .catch((e: unknown) => e);

      expect(isAmbiguousOutcomeError(error)).toBe(true);
      const ambiguous = error as AmbiguousOutcomeError;
      expect(ambiguous.code).toBe('ambiguous_outcome');
      expect(ambiguous.merchantReference).toBe('sale-busy');
      expect(ambiguous.answer).toMatchObject({ status: 'success' });
      expect(ambiguous.cause).toBe(busy);
      expect(ambiguous.message).toContain('recording its answer failed');
      expect(events).toEqual([ambiguous]);
      // Left as the store failed: a stale `initiating` record is pulled by the reconciler as `unknown`.
      const record = await store.records.get('sale-busy');
      expect(record?.status).toBe('initiating');
    } finally {
      await store.close();
    }
  });
});

describe('A store that fails before or outside a money call', () => {
  it('is one StoreError naming the operation, with the driver error as cause; nothing is sent', async () => {
    const file = join(directory, 'locked.sqlite');
    const store = await SqliteReferenceStore.open(file, { busyTimeoutMs: 0 });
    const holder = new Database(file);
    try {
      const pesakit = harness.client({ store });
      const sent: string[] = [];
      pesakit.on('request', (event) => sent.push(event.endpoint));
      holder.exec('BEGIN IMMEDIATE');
      const error = await pesakit.airtime
        .purchase({ msisdn: '255754123456', amount: 1_000 }, { merchantReference: 'sale-locked' })
        .catch((e: unknown) => e);
      holder.exec('ROLLBACK');

      expect(isStoreError(error)).toBe(true);
      expect(error).toMatchObject({ code: 'store_unavailable', operation: 'records.create' });
      expect((error as StoreError).message).toMatch(/records\.create: .*locked.* Check that the/);
      expect(((error as StoreError).cause as { code?: string }).code).toBe('SQLITE_BUSY');
      expect(sent.filter((endpoint) => endpoint !== 'airtimeLogin')).toEqual([]);
      expect(await store.records.get('sale-locked')).toBeUndefined();
    } finally {
      holder.close();
      await store.close();
    }
  });

  it('a read on a database handle that was closed is a StoreError too', async () => {
    const database = new Database(join(directory, 'closed.sqlite'));
    const store = await SqliteReferenceStore.open(database);
    database.close();
    const error = await store.records.find({ value: 'CN-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ operation: 'records.find' });
    const inboxError = await store.inbox.backlog().catch((e: unknown) => e);
    expect(inboxError).toBeInstanceOf(StoreError);
    expect(inboxError).toMatchObject({ operation: 'inbox.backlog' });
    await store.close();
  });

  it('PostgreSQL unreachable at open: a StoreError that never shows the password', async () => {
    const password = 'sup3r-secret-pw';
    const error = await PostgresReferenceStore.open(
      `postgres://shop:${password}@127.0.0.1:9/payments`,
    ).catch((e: unknown) => e);
    expect(isStoreError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'store_unavailable', operation: 'open' });
    expect(inspect(error, { depth: 5 })).not.toContain(password);
  });
});
