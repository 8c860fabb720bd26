import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import {
  type AmbiguousOutcomeError,
  isAmbiguousOutcomeError,
  isStoreError,
  type StoreError,
} from '../../src/errors/index.js';
import type { ReferenceStore } from '../../src/references/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// A SQLite file deleted or replaced while its store is open stays open to the process: SQLite
// would go on committing into a file no later store can read. A payout answered then must not
// be recorded there as `success`: the caller gets an AmbiguousOutcomeError whose cause is a
// StoreError naming the file, and every later write is refused the same way.

let harness: Harness;
let root: string;
let folders = 0;
beforeAll(async () => {
  harness = await startHarness();
  root = mkdtempSync(join(tmpdir(), 'pesakit-store-file-moved-'));
});
afterEach(() => harness.control('faults', { latencyMs: 0 }));
afterAll(async () => {
  await harness.close();
  rmSync(root, { recursive: true, force: true });
});

/** A fresh folder of the test's own, so that removing it removes nothing else. */
function newFolder(): string {
  const folder = join(root, `folder-${++folders}`);
  mkdirSync(folder);
  return folder;
}

/**
 * Pays `merchantReference` with the platform's answer held back 500 ms, running `whileInFlight` once
 * the payout request has left (the intent is written, the answer not yet recorded).
 */
async function payWhileInFlight(
  pesakit: Pesakit,
  merchantReference: string,
  whileInFlight: () => void,
): Promise<unknown> {
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount: 50_000,
  });
  // Logged in first: only the payout's answer is held back.
  await pesakit.disbursement.user();
  await harness.control('faults', { latencyMs: 500 });
  pesakit.on('request', (event) => {
    if (event.endpoint === 'disbursementPay') whileInFlight();
  });
  return pesakit.disbursement
    .pay({ msisdn: '255754123456', amount: 1_000, name: 'Asha Juma' }, { merchantReference })
    .catch((error: unknown) => error);
}

function expectAmbiguousWithFileCause(
  outcome: unknown,
  file: string,
  merchantReference: string,
): void {
  expect(isAmbiguousOutcomeError(outcome)).toBe(true);
  const ambiguous = outcome as AmbiguousOutcomeError;
  expect(ambiguous.merchantReference).toBe(merchantReference);
  expect(ambiguous.answer).toMatchObject({ response: { status: true } });
  expect(isStoreError(ambiguous.cause)).toBe(true);
  const cause = ambiguous.cause as StoreError;
  expect(cause).toMatchObject({ code: 'store_unavailable', operation: 'records.move' });
  expect(cause.message).toContain(`${JSON.stringify(file)} was deleted or replaced`);
  expect(cause.message).toContain('Restore the file');
  expect(cause.message).not.toContain(accounts.disbursement.password);
}

describe('A SQLite store file deleted while a payout is in flight', () => {
  it('is an AmbiguousOutcomeError whose cause is a StoreError naming the file, not success', async () => {
    const folder = newFolder();
    const file = join(folder, 'payments.sqlite');
    const store = await SqliteReferenceStore.open(file);
    try {
      const pesakit = harness.client({ store });
      const outcome = await payWhileInFlight(pesakit, 'payout-deleted', () =>
        rmSync(folder, { recursive: true }),
      );
      expectAmbiguousWithFileCause(outcome, file, 'payout-deleted');
      // Every later write is refused too, not only the answer.
      const refused = await store.records
        .create({
          merchantReference: 'payout-after',
          product: 'disbursement',
          flow: 'disbursement',
          amount: 1_000,
          msisdn: '255754123456',
        })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ name: 'StoreError', operation: 'records.create' });
    } finally {
      await store.close();
    }
  });
});

describe('A SQLite store file replaced by another file while a payout is in flight', () => {
  it('is an AmbiguousOutcomeError whose cause is a StoreError naming the file', async () => {
    const folder = newFolder();
    const file = join(folder, 'payments.sqlite');
    const other = join(folder, 'restored-backup.sqlite');
    await (await SqliteReferenceStore.open(other)).close();
    const store = await SqliteReferenceStore.open(file);
    try {
      const pesakit = harness.client({ store });
      const outcome = await payWhileInFlight(pesakit, 'payout-replaced', () =>
        renameSync(other, file),
      );
      expectAmbiguousWithFileCause(outcome, file, 'payout-replaced');
    } finally {
      await store.close();
    }
    // The answer reached no file: a store opened on the path never reads the payout as paid.
    const reopened = await SqliteReferenceStore.open(file);
    expect((await reopened.records.get('payout-replaced'))?.status).not.toBe('success');
    await reopened.close();
  });
});

describe('A SQLite store whose file stays in place', () => {
  async function paysAndRecords(
    store: ReferenceStore,
    merchantReference: string,
    whileInFlight: () => void = () => {},
  ): Promise<void> {
    const pesakit = harness.client({ store });
    const payout = await payWhileInFlight(pesakit, merchantReference, whileInFlight);
    expect(payout).toMatchObject({ merchantReference, record: { status: 'success' } });
    expect((await store.records.get(merchantReference))?.status).toBe('success');
  }

  it('records the answer in the file, though another connection changed the file meanwhile', async () => {
    const file = join(newFolder(), 'payments.sqlite');
    const store = await SqliteReferenceStore.open(file);
    try {
      // A checkpoint rewrites the file in place: its size and times change, it stays the file.
      await paysAndRecords(store, 'payout-kept', () => {
        const other = new Database(file);
        other.pragma('wal_checkpoint(TRUNCATE)');
        other.close();
      });
    } finally {
      await store.close();
    }
    const reopened = await SqliteReferenceStore.open(file);
    expect((await reopened.records.get('payout-kept'))?.status).toBe('success');
    await reopened.close();
  });

  it('a store on :memory: has no file to check and records the answer', async () => {
    const store = await SqliteReferenceStore.open(':memory:');
    try {
      await paysAndRecords(store, 'payout-in-memory');
    } finally {
      await store.close();
    }
  });
});
