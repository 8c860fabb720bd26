import { describe, expect, it, vi } from 'vitest';
import { describeStore, parseStoreLocation } from '../../src/cli/reconcile/open-store.js';
import { PassTotals } from '../../src/cli/reconcile/pass-counts.js';
import { createReporter } from '../../src/cli/reconcile/reporter.js';
import { emptyProgress } from '../../src/reconciler/events.js';
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
  counts: {
    checked: 3,
    settled: 1,
    failed: 1,
    review: 1,
    pending: 0,
    errors: 0,
    leaseExpired: 0,
    notVisible: 0,
  },
  durationMs: 1234,
  needsReview: 1,
  unhandledEffects: {},
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
    expect(io.out.text).not.toContain('Effects due');
    expect(io.out.text + io.err.text).not.toContain('\u001b');
  });

  it('names the effects left due for the processes with handlers, in text and JSON', () => {
    const waiting = { ...outcome, unhandledEffects: { paid: 3, sent: 1 } };
    const io = streams(false);
    createReporter(false, io).finished(waiting);
    expect(io.out.text).toContain('Effects due for your handlers');
    expect(io.out.text).toContain('3 paid, 1 sent.');
    const json = streams(false);
    createReporter(true, json).finished(waiting);
    expect(JSON.parse(json.out.lines().at(-1) ?? '')).toMatchObject({
      event: 'summary',
      unhandledEffects: { paid: 3, sent: 1 },
    });
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

describe('records handed back unchecked (lease expired)', () => {
  it('get a column in the table and a clause in the progress line only when there were any', () => {
    const quiet = streams(false);
    createReporter(false, quiet).finished({ ...outcome, needsReview: 0, exitCode: 0 });
    expect(quiet.out.text).not.toContain('lease expired');

    const io = streams(false);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const reporter = createReporter(false, io);
      // Plain progress lines are at most one per 5 s.
      vi.setSystemTime(Date.now() + 6_000);
      reporter.progress({ ...outcome.counts, leaseExpired: 2 });
    } finally {
      vi.useRealTimers();
    }
    const reporter = createReporter(false, io);
    reporter.finished({ ...outcome, counts: { ...outcome.counts, leaseExpired: 2 } });
    expect(io.out.text).toContain('0 errors, 2 lease expired');
    expect(io.out.text).toContain('lease expired |');
    expect(io.out.text).toMatch(
      /\|\s+3\s+\|\s+1\s+\|\s+1\s+\|\s+0\s+\|\s+1\s+\|\s+0\s+\|\s+2\s+\|/,
    );
  });

  it('--watch totals count a hand-back as progress within a pass, not as the start of a new one', () => {
    const passes = new PassTotals();
    const event = (checked: number, settled: number, leaseExpired: number) => ({
      ...emptyProgress(),
      checked,
      settled,
      leaseExpired,
    });
    // Pass 1: two checks, then one record handed back, then one more check.
    passes.add(event(1, 1, 0));
    passes.add(event(2, 2, 0));
    passes.add(event(2, 2, 1));
    passes.add(event(3, 3, 1));
    // Pass 2 restarts from zero.
    passes.add(event(1, 1, 0));
    passes.add(event(1, 1, 1));
    expect(passes.totals).toMatchObject({ checked: 4, settled: 4, leaseExpired: 2 });
  });
});

describe('records of another account or environment (not visible)', () => {
  const warning = {
    code: 'not_visible',
    merchantReference: 'ORDER-7',
    product: 'collection',
    recordAccount: { environment: 'sandbox', login: 'shop-a@duka.co.tz' },
    clientAccount: { environment: 'sandbox', login: 'shop-b@duka.co.tz' },
    message: 'ORDER-7 was made with the collection account shop-a@duka.co.tz (sandbox) …',
  } as const;
  const counted = { ...outcome, counts: { ...outcome.counts, notVisible: 2 }, exitCode: 4 };

  it('get a line each, a column in the table and a sentence after it only when there were any', () => {
    const quiet = streams(false);
    createReporter(false, quiet).finished({ ...outcome, needsReview: 0, exitCode: 0 });
    expect(quiet.out.text).not.toContain('not visible');

    const io = streams(false);
    const reporter = createReporter(false, io);
    reporter.notVisible(record, warning);
    reporter.finished(counted);
    expect(io.out.text).toContain(
      'not visible ORDER-7 collection/mno 20000 TZS: ORDER-7 was made with the collection account',
    );
    expect(io.out.text).toContain('not visible |');
    expect(io.out.text).toMatch(
      /\|\s+3\s+\|\s+1\s+\|\s+1\s+\|\s+0\s+\|\s+1\s+\|\s+0\s+\|\s+2\s+\|/,
    );
    expect(io.out.text).toContain('2 records were made with another account or environment');
  });

  it('--json prints a not_visible line naming both accounts, and notVisible in the summary', () => {
    const io = streams(false);
    const reporter = createReporter(true, io);
    reporter.notVisible(record, warning);
    reporter.finished(counted);
    const [line, summary] = io.out.lines().map((text) => JSON.parse(text));
    expect(line).toMatchObject({
      event: 'not_visible',
      merchantReference: 'ORDER-7',
      recordAccount: warning.recordAccount,
      clientAccount: warning.clientAccount,
    });
    expect(summary).toMatchObject({ event: 'summary', notVisible: 2, exitCode: 4 });
    expect(io.out.text).not.toContain('255754321998');
  });

  it('--watch totals count a record not visible as progress within a pass', () => {
    const passes = new PassTotals();
    passes.add({ ...emptyProgress(), checked: 1, settled: 1 });
    passes.add({ ...emptyProgress(), checked: 1, settled: 1, notVisible: 1 });
    passes.add({ ...emptyProgress(), checked: 2, settled: 2, notVisible: 1 });
    expect(passes.totals).toMatchObject({ checked: 2, settled: 2, notVisible: 1 });
  });
});
