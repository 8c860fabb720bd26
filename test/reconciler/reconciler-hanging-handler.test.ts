import { describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/index.js';
import { harnessPerFile } from '../helpers/sandbox-lifetime.js';

// Checks the reconciler's handlers (docs/reconciler.md: "the handler
// runs at least once until it completes"; docs/reference-store.md: "keep a handler shorter than
// the lease"). An onPaid that never settles — a fulfilment call without a timeout — held its
// check's slot forever: with `concurrency: 1` no other record was ever checked, `runOnce()`
// never resolved, and `close()` (the SIGTERM handler the docs show) never resolved either; at
// the default concurrency, eight such handlers stopped the reconciler for good. The runner now
// stops waiting just before the handler outlives its lease (the reconciler's `leaseMs`): the run
// is recorded as failed ("did not finish within its lease") and retried on the effect's
// schedule, as it would be by another process once that lease expired.

const sandbox = harnessPerFile();

describe('a handler that never finishes', () => {
  it('does not stall the pass or close(): the other records are checked, the effect is retried', async () => {
    const store = new MemoryReferenceStore();
    const pesakit = sandbox.harness.client({ store });
    const references = ['hang-0', 'hang-1', 'hang-2'];
    for (const [index, merchantReference] of references.entries()) {
      const payment = await pesakit.collection.initiateMno(
        { amount: 1_000 + index, msisdn: '255754123456' },
        { merchantReference },
      );
      await sandbox.harness.control('collection/settle', {
        ref_id: payment.controlNumber,
        outcome: 'success',
      });
    }
    let runs = 0;
    const reconciler = pesakit.createReconciler({
      concurrency: 1,
      leaseMs: 2_000,
      onPaid: () => {
        runs += 1;
        // The first run hangs; the others finish.
        return runs === 1 ? new Promise<never>(() => {}) : undefined;
      },
    });
    const errors: unknown[] = [];
    reconciler.on('error', (error) => errors.push(error));

    const pass = () =>
      Promise.race([
        reconciler.runOnce({ force: true }),
        new Promise<'stalled'>((resolve) => setTimeout(() => resolve('stalled'), 8_000)),
      ]);
    const first = await pass();
    if (first === 'stalled') throw new Error('the pass stalled behind the hanging handler');
    // The hung handler held the one slot for most of the page's lease, so the records behind it
    // were either checked or — their lease too short to start a check on — handed back as due,
    // never pulled on an expiring lease; a second pass checks what was handed back.
    expect(first.checked + first.leaseExpired).toBe(3);
    const second = await pass();
    if (second === 'stalled') throw new Error('the second pass stalled');
    expect(first.settled + second.settled).toBe(3);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(String(errors[0])).toMatch(/did not finish within its lease/);

    const stuck = await Promise.all(references.map((reference) => store.records.get(reference)));
    expect(stuck.map((record) => record?.status)).toEqual(['success', 'success', 'success']);
    const hung = stuck.find((record) => record?.effect?.status !== 'done');
    expect(hung?.effect?.status).toBe('due');
    expect(hung?.effect?.lastError).toMatch(/did not finish within its lease/);

    const closed = await Promise.race([
      reconciler.close().then(() => 'closed'),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 3_000)),
    ]);
    expect(closed).toBe('closed');
  });
});
