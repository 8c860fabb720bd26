import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AmbiguousOutcomeError, isAmbiguousOutcomeError } from '../../src/errors/index.js';
import type { ReferenceStore } from '../../src/references/index.js';
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

/** `store`, except that recording an answer throws `error`, as a busy database would. */
function failingAnswerWrites(store: ReferenceStore, error: unknown): ReferenceStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'attachAndTransition') {
        return () => Promise.reject(error);
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
      const record = await store.get('sale-busy');
      expect(record?.status).toBe('initiating');
    } finally {
      await store.close();
    }
  });
});
