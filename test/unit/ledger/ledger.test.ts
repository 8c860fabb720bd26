import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLeaseLostError } from '../../../src/index.js';
import { Ledger } from '../../../src/ledger/ledger.js';
import { MemoryReferenceStore } from '../../../src/references/index.js';
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
    const [lost] = await store.leaseDue({ limit: 1, leaseMs: 1_000, force: true });
    now += 5_000;
    const [held] = await store.leaseDue({ limit: 1, leaseMs: 1_000, force: true });
    const error = await failure(ledger.fenced(lost!.token).move('ledger-1', { to: 'success' }));
    expect(isLeaseLostError(error)).toBe(true);
    expect((await store.get('ledger-1'))?.status).toBe('unknown');
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
});

/** The store's record-changing methods; outside the store and the ledger, none is called. */
const recordChanges =
  /\.(transition|attachAndTransition|attachReferences|createIntent)\(|store\.resolve\(/;

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
