import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLeaseLostError } from '../../../src/index.js';
import { Ledger, type LedgerStore } from '../../../src/ledger/ledger.js';
import { MemoryReferenceStore } from '../../../src/references/index.js';
import type { RecordMove } from '../../../src/references/types.js';
import { failure } from '../../helpers/failure.js';

const intent = {
  merchantReference: 'ledger-1',
  product: 'disbursement',
  flow: 'disbursement',
  amount: 2500,
  msisdn: '255754123456',
} as const;

describe('the ledger', () => {
  it('moves status and references in one commit, and a repeat is a no-op', async () => {
    const store = new MemoryReferenceStore();
    const ledger = new Ledger(store);
    await ledger.open(intent);
    const moved = await ledger.move('ledger-1', {
      to: 'pending',
      references: { refid: 'REF-1' },
      reason: 'accepted',
    });
    expect(moved).toMatchObject({ changed: true, overtaken: false });
    expect(moved.record).toMatchObject({ status: 'pending', refid: 'REF-1' });
    const again = await ledger.move('ledger-1', { to: 'pending' });
    expect(again).toMatchObject({ changed: false, overtaken: false });
  });

  it('a move another path overtook keeps their status; its platform references still attach', async () => {
    const store = new MemoryReferenceStore();
    const ledger = new Ledger(store);
    await ledger.open(intent);
    await ledger.move('ledger-1', { to: 'success', reason: 'a callback confirmed it' });
    const late = await ledger.move('ledger-1', {
      to: 'failed',
      references: { txnid: 'TX-LATE' },
      reason: 'a late answer',
    });
    expect(late).toMatchObject({ changed: false, overtaken: true });
    expect(late.record).toMatchObject({
      status: 'success',
      statusReason: 'a callback confirmed it',
      txnid: 'TX-LATE',
    });
  });

  it('a fenced move through a lease that was taken over writes nothing', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const store = new MemoryReferenceStore({ now: () => new Date(now) });
    const ledger = new Ledger(store);
    await ledger.open(intent);
    await ledger.move('ledger-1', { to: 'unknown' });
    const [lost] = await store.schedule.lease({ limit: 1, leaseMs: 1_000, force: true });
    now += 5_000;
    const [held] = await store.schedule.lease({ limit: 1, leaseMs: 1_000, force: true });
    const error = await failure(ledger.fenced(lost!.token).move('ledger-1', { to: 'success' }));
    expect(isLeaseLostError(error)).toBe(true);
    expect((await store.records.get('ledger-1'))?.status).toBe('unknown');
    const moved = await ledger.fenced(held!.token).move('ledger-1', { to: 'success' });
    expect(moved.changed).toBe(true);
  });

  it('a person resolves only a record waiting for one', async () => {
    const store = new MemoryReferenceStore();
    const ledger = new Ledger(store);
    await ledger.open(intent);
    await ledger.move('ledger-1', {
      to: 'needs_review',
      review: { reason: 'ambiguous_evidence', message: 'check the wallet' },
    });
    const resolved = await ledger.resolve('ledger-1', 'success', { note: 'seen in the wallet' });
    expect(resolved).toMatchObject({
      status: 'success',
      resolution: { note: 'seen in the wallet' },
    });
    const error = await failure(ledger.resolve('ledger-1', 'failed', { note: 'again' }));
    expect(error).toMatchObject({ name: 'InvalidTransitionError' });
  });

  it('a record another path moved between the read and the commit is read again and decided anew', async () => {
    const store = new MemoryReferenceStore();
    const ledger = new Ledger(store);
    await ledger.open(intent);
    // The store's compare-and-set refuses the first commit: another worker moved the record to
    // `unknown` after the ledger read `initiating`.
    let raced = false;
    const racing: LedgerStore = {
      records: {
        create: (given) => store.records.create(given),
        get: (reference) => store.records.get(reference),
        async move(reference: string, move: RecordMove) {
          if (!raced) {
            raced = true;
            await ledger.move(reference, { to: 'unknown', reason: 'the answer was lost' });
          }
          return store.records.move(reference, move);
        },
      },
    };
    const moved = await new Ledger(racing).move('ledger-1', { to: 'success', reason: 'paid' });
    expect(moved).toMatchObject({ changed: true, from: 'unknown', overtaken: false });
    expect(moved.record).toMatchObject({ status: 'success', statusReason: 'paid' });
  });

  it('a stale move the record has passed is overtaken: theirs stands, nothing is thrown', async () => {
    const store = new MemoryReferenceStore();
    const ledger = new Ledger(store);
    await ledger.open(intent);
    await ledger.move('ledger-1', { to: 'success', reason: 'a callback confirmed it' });
    // The reconciler's lost-answer move (initiating → unknown), decided before the callback won.
    const stale = await ledger.move('ledger-1', { to: 'unknown', reason: 'the answer was lost' });
    expect(stale).toMatchObject({ changed: false, overtaken: true, from: 'success' });
    expect(stale.record.status).toBe('success');
  });

  it('a store whose compare-and-set never applies is named, not looped on forever', async () => {
    const store = new MemoryReferenceStore();
    await new Ledger(store).open(intent);
    const stuck: LedgerStore = {
      records: {
        create: (given) => store.records.create(given),
        get: (reference) => store.records.get(reference),
        move: async (reference) => ({
          record: (await store.records.get(reference))!,
          applied: false,
        }),
      },
    };
    const error = await failure(new Ledger(stuck).move('ledger-1', { to: 'pending' }));
    expect(String((error as Error).message)).toMatch(/never applied .* one transaction/);
    expect((await store.records.get('ledger-1'))?.status).toBe('initiating');
  });
});

/**
 * The store's record-changing methods (`records.move`, `records.create`); outside the store and
 * the ledger, none is called — a `.move(` is a ledger's, on a name that says so.
 */
const recordChanges = /(?<![lL]edger)\.move\(|records\.create\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('every record moves through the ledger', () => {
  it('no module outside the store and the ledger calls a record-changing store method', () => {
    const src = join(import.meta.dirname, '../../../src');
    // The store implements the methods and its conformance kit (testing/) exercises them; the
    // sandbox is the platform, with records of its own.
    const exempt = ['references/', 'ledger/', 'sandbox/', 'testing/'];
    const calls = sourceFiles(src)
      .map((path) => relative(src, path))
      .filter((path) => !exempt.some((prefix) => path.startsWith(prefix)))
      .flatMap((path) =>
        readFileSync(join(src, path), 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            recordChanges.test(line) &&
            !line.trimStart().startsWith('*') &&
            !line.trimStart().startsWith('//')
              ? [`${path}:${index + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(calls).toEqual([]);
  });
});
