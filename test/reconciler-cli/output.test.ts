import { describe, expect, it } from 'vitest';
import { describeStore, parseStoreLocation } from '../../src/cli/reconcile/open-store.js';
import { createReporter } from '../../src/cli/reconcile/reporter.js';
import type { TransactionRecord } from '../../src/references/index.js';
import { Captured } from './harness.js';

const record = {
  merchantReference: 'ORDER-7',
  product: 'collection',
  flow: 'mno',
  amount: 20_000,
  msisdn: '255754321998',
  status: 'needs_review',
  statusReason: null,
} as unknown as TransactionRecord;

const outcome = {
  counts: { checked: 3, settled: 1, failed: 1, review: 1, pending: 0, errors: 0 },
  durationMs: 1234,
  needsReview: 1,
  exitCode: 3,
};

function streams(tty: boolean) {
  const out = new Captured();
  const err = new Captured();
  err.isTTY = tty;
  return { out, err };
}

describe('reconcile output: a progress bar on a terminal, plain lines otherwise', () => {
  it('on a TTY draws the bar on stderr, logs reviews above it, and ends with the table on stdout', () => {
    const io = streams(true);
    const reporter = createReporter(false, io);
    reporter.started({ mode: 'once', environment: 'sandbox', store: 'shop.sqlite', all: true });
    for (let checked = 1; checked <= 3; checked++) {
      reporter.progress({ ...outcome.counts, checked });
    }
    reporter.review(record, { reason: 'amount_mismatch', message: 'paid 5,000 of 20,000' });
    reporter.finished(outcome);
    expect(io.err.text).toContain('reconcile [');
    expect(io.err.text).toMatch(/\d checked \| 1 settled \| 1 failed \| 1 review \| 0 errors/);
    expect(io.err.text).toContain(
      'review    ORDER-7 collection/mno 20000 TZS: amount_mismatch: paid 5,000 of 20,000',
    );
    expect(io.out.text).toMatch(/\|\s+3\s+\|\s+1\s+\|\s+1\s+\|\s+0\s+\|\s+1\s+\|\s+0\s+\|/);
    expect(io.out.text).toContain('1.2 s. 1 record in needs_review');
    // Never a phone number in the output.
    expect(io.err.text + io.out.text).not.toContain('255754321998');
  });

  it('without a TTY prints plain lines and no escape codes', () => {
    const io = streams(false);
    const reporter = createReporter(false, io);
    reporter.started({ mode: 'once', environment: 'sandbox', store: 'shop.sqlite', all: false });
    reporter.settled({ ...record, status: 'success' });
    reporter.error(new Error('connect ECONNREFUSED'), record);
    reporter.finished({ ...outcome, needsReview: 0, exitCode: 0 });
    expect(io.out.lines()[0]).toBe('reconcile once: records due in shop.sqlite against sandbox');
    expect(io.out.text).toContain('settled   ORDER-7 collection/mno 20000 TZS');
    expect(io.out.text).toContain(
      'error     ORDER-7 collection/mno 20000 TZS: Error: connect ECONNREFUSED',
    );
    expect(io.out.text).toContain('Nothing waits for review.');
    expect(io.out.text + io.err.text).not.toContain('\u001b');
  });

  it('--json never prints a store password', () => {
    const io = streams(false);
    const location = parseStoreLocation('postgres://app:s3cret@db.internal/shop', false);
    const reporter = createReporter(true, io);
    reporter.started({
      mode: 'watch',
      environment: 'production',
      store: describeStore(location),
      all: false,
    });
    expect(JSON.parse(io.out.lines()[0] ?? '')).toMatchObject({
      event: 'start',
      store: 'postgres://app:***@db.internal/shop',
    });
    expect(io.out.text).not.toContain('s3cret');
  });
});
