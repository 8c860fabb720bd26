import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { Pesakit } from '../../src/client.js';
import { isAmbiguousOutcomeError } from '../../src/errors/index.js';
import { pesakitFastify } from '../../src/fastify.js';
import type { EffectKind } from '../../src/references/effects.js';
import type { TransactionRecord } from '../../src/references/index.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { temporaryDirectory } from './harness.js';
import { accounts } from './sandbox-shop.js';

/**
 * The reconciler's chaos run: mixed transactions across all three products, with 30 % of the
 * callbacks dropped, latency beyond the client's timeout (outcomes that happened but were never
 * answered: `unknown`), vendor and gateway failures (numbers ending 999), late settlement (…997)
 * and settlement by hand (…998). The shop is a real Fastify app with pesakit's callback
 * receiver mounted (`pesakit/fastify`) on the same SQLite store as the reconciler, and the
 * reconciler's first pass runs while callbacks are still arriving, so the two paths race for
 * every record. Then a comparison with the sandbox's own ground truth: every record is final
 * or in needs_review with evidence, no final state contradicts what really happened, and each
 * final record's handler (`onPaid` / `onFailed` for collections, `onSent` / `onNotSent` for money
 * out, shared by both paths) completed exactly once; a recharge's outcome runs no handler.
 *
 * 300 transactions by default (`PESAKIT_CHAOS_COUNT` changes it; 1,000 take about 30 s on a
 * 2-core machine under load, 8 s of it the payouts' settle window closing).
 */
const TOTAL = Number(process.env['PESAKIT_CHAOS_COUNT'] ?? 300);
const LATENCY_SHARE = 0.2; // of each product's transactions, sent while responses are late
const DROP_SHARE = 0.3; // of the collection callbacks
const CLIENT_TIMEOUT_MS = 300;
const LATENCY_MS = 1000;
const SETTLE_WINDOW_MS = 8000;

type Product = 'collection' | 'airtime' | 'disbursement';
interface Sent {
  merchantReference: string;
  product: Product;
  amount: number;
  msisdn: string;
  late: boolean;
  ambiguous: boolean;
}

/** A deterministic generator, so a failing run can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

let sandbox: Sandbox;
let url: string;
let store: SqliteReferenceStore;
let shop: Pesakit;
let app: FastifyInstance;
let receiver: CallbackReceiver;
let callbackUrl: string;
const directory = temporaryDirectory();

/**
 * Completed handler runs by kind and effect key (the merchant reference), from both paths:
 * the receiver and the reconciler are given the same handlers, as a merchant would.
 */
const completed = new Map<string, number>();
const handlerErrors: unknown[] = [];
/** Final transitions won by each path, to show the race happened. */
const wins = { receiver: 0, reconciler: 0 };
function countCompletion(kind: EffectKind, key: string): void {
  completed.set(`${kind} ${key}`, (completed.get(`${kind} ${key}`) ?? 0) + 1);
}
const handlers = {
  onPaid: async (_record: TransactionRecord, { effectKey }: { effectKey: string }) => {
    // A little work, so that two runs of one effect would overlap rather than hide.
    await new Promise((resolve) => setTimeout(resolve, 1));
    countCompletion('paid', effectKey);
  },
  onFailed: async (_record: TransactionRecord, { effectKey }: { effectKey: string }) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    countCompletion('failed', effectKey);
  },
  onSent: async (_record: TransactionRecord, { effectKey }: { effectKey: string }) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    countCompletion('sent', effectKey);
  },
  onNotSent: async (_record: TransactionRecord, { effectKey }: { effectKey: string }) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    countCompletion('not_sent', effectKey);
  },
  onReview: async (
    record: TransactionRecord | null,
    _verdict: unknown,
    context: { effectKey: string },
  ) => {
    countCompletion('review', record?.merchantReference ?? context.effectKey);
  },
};

beforeAll(async () => {
  sandbox = await createSandbox({
    autoSettle: { delayMs: 100 },
    callbackSchedule: [200, 500],
    seed: {
      accounts: [
        { product: 'collection', ...accounts.collection },
        { product: 'airtime', ...accounts.airtime, status: 'active', balance: 100_000_000 },
        {
          product: 'disbursement',
          ...accounts.disbursement,
          status: 'active',
          balance: 100_000_000,
        },
      ],
    },
  });
  url = await sandbox.listen({ port: 0 });
  store = await SqliteReferenceStore.open(join(directory.path, 'chaos.sqlite'));
  shop = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: accounts,
    store,
    timeoutMs: 10_000,
    // The sandbox delivers a few hundred callbacks within seconds; the default rate limit of
    // status pulls (20/s) is for production, where a forged flood must not become one.
    pullsPerSecond: 1_000,
  });

  // The shop: a Fastify app with pesakit's receiver mounted, on the reconciler's store.
  receiver = shop.createCallbackReceiver({
    ...handlers,
    concurrency: 8,
    pollIntervalMs: 50,
    effectDrainIntervalMs: 200,
  });
  receiver.on('error', ({ stage, error }) => handlerErrors.push(`${stage}: ${String(error)}`));
  receiver.on('paid', () => (wins.receiver += 1));
  receiver.on('failed', () => (wins.receiver += 1));
  app = Fastify();
  await app.register(pesakitFastify, { receiver, prefix: '/pesakit' });
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  callbackUrl = `${appUrl}/pesakit/callback`;
  receiver.start();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  await store?.close();
  await sandbox?.close();
  directory.remove();
});

/** Sends one transaction; an ambiguous outcome is expected under latency, anything else is not. */
async function send(next: () => number, index: number, late: boolean): Promise<Sent> {
  const draw = next();
  const product: Product = draw < 0.5 ? 'collection' : draw < 0.75 ? 'airtime' : 'disbursement';
  const outcome = next();
  // Collections: 999 fails, 997 settles late, 998 is settled by hand below; the rest succeed.
  // Airtime and payouts: 999 fails at the vendor/gateway, the rest succeed.
  const ending =
    product === 'collection'
      ? outcome < 0.15
        ? '999'
        : outcome < 0.25
          ? '997'
          : outcome < 0.4 && !late
            ? '998'
            : '123'
      : outcome < 0.2
        ? '999'
        : '456';
  const msisdn = `25575${String(index).padStart(4, '0')}${ending}`;
  // Unique per transaction: the ground truth finds wallet movements by amount.
  const amount = 1_000 + index;
  const merchantReference = `CHAOS-${String(index).padStart(5, '0')}`;
  const options = { merchantReference, ...(late ? { timeoutMs: CLIENT_TIMEOUT_MS } : {}) };
  const sent: Sent = { merchantReference, product, amount, msisdn, late, ambiguous: false };
  try {
    if (product === 'collection') {
      // The SDK adds `pesakit_ref=<merchant reference>` to it (docs/callbacks.md § Orphans).
      await shop.collection.initiateMno({ amount, msisdn, callback_url: callbackUrl }, options);
    } else if (product === 'airtime') {
      await shop.airtime.purchase({ amount, msisdn }, options);
    } else {
      await shop.disbursement.pay({ amount, msisdn, name: `Payee ${index}` }, options);
    }
  } catch (error) {
    if (isAmbiguousOutcomeError(error)) sent.ambiguous = true;
    else if (!msisdn.endsWith('999')) throw error;
  }
  return sent;
}

async function inBatches<T>(count: number, width: number, make: (i: number) => Promise<T>) {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    const batch = Array.from({ length: Math.min(width, count - start) }, (_, i) => make(start + i));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

async function control(path: string, body: unknown) {
  const response = await fetch(`${url}/api/sandbox/_control/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.json() as Promise<Record<string, unknown>>;
}

/**
 * Waits until the sandbox has settled everything and delivered every callback, and the shop's
 * receiver has processed its inbox and run every effect that is due (`receiver.onIdle()`).
 */
async function quiet(): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    await sandbox.idle();
    await receiver.onIdle();
    if (sandbox.inspect.pendingSettlements() === 0) {
      // A delivery may have started while the receiver was working: both quiet at once.
      await sandbox.idle();
      await receiver.onIdle();
      if (sandbox.inspect.pendingSettlements() === 0) return;
    }
    if (Date.now() > deadline) throw new Error('the sandbox and the shop never went quiet');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What really happened, from the sandbox's state. */
function groundTruth(sent: Sent): 'success' | 'failed' | 'absent' {
  if (sent.product === 'collection') {
    const delivery = sandbox.inspect
      .deliveries()
      .find((entry) => entry.url.includes(`pesakit_ref=${sent.merchantReference}`));
    const controlNumber = (delivery?.payload as { controlNumber?: string } | undefined)
      ?.controlNumber;
    const transaction = controlNumber ? sandbox.inspect.collection(controlNumber) : undefined;
    if (!transaction) return 'absent';
    if (transaction.status === 'success') return 'success';
    if (transaction.status === 'failed') return 'failed';
    throw new Error(`collection ${sent.merchantReference} is still ${transaction.status}`);
  }
  const email = sent.product === 'airtime' ? accounts.airtime.email : accounts.disbursement.email;
  const ledger = sandbox.inspect.wallet(sent.product, email)?.ledger ?? [];
  const kind = sent.product === 'airtime' ? 'airtime' : 'payout';
  // Debits are negative ledger entries, in cents.
  const moved = ledger.some((entry) => entry.kind === kind && entry.amount === -sent.amount * 100);
  return moved ? 'success' : 'failed';
}

describe(`chaos run: ${TOTAL} mixed transactions, 30 % callbacks dropped, timeouts, failures`, () => {
  it('the reconciler brings every record to a final state or to needs_review, never a wrong one', async () => {
    const next = random(20_261_123);
    const lateCount = Math.round(TOTAL * LATENCY_SHARE);
    const onTime = TOTAL - lateCount;
    // The sandbox drops "the next N" callbacks: N is 30 % of the collections' callbacks (about
    // half the transactions are collections), so the earliest 30 % never reach the shop.
    await control('faults', { callbacks: { drop: Math.round(TOTAL * 0.5 * DROP_SHARE) } });

    const sent = await inBatches(onTime, 16, (i) => send(next, i, false));
    // Re-armed for the late ones too, so that some collections whose answer was lost (no
    // reference to pull by) also lose their callback: only a person can decide those.
    await control('faults', {
      latencyMs: LATENCY_MS,
      callbacks: { drop: Math.round(lateCount * 0.5 * DROP_SHARE) },
    });
    sent.push(...(await inBatches(lateCount, 16, (i) => send(next, onTime + i, true))));
    await control('faults', { latencyMs: 0 });

    const atRace = await Promise.all(sent.map((s) => store.records.get(s.merchantReference)));
    const openAtRace = atRace.filter(
      (r) => r && ['pending', 'unknown', 'initiating'].includes(r.status),
    );

    // The reconciler's first pass starts now, while the sandbox is still settling (late
    // numbers, payments settled by hand below) and the receiver is still taking callbacks:
    // for each of those records the two paths race, and one claim must win.
    const errors: unknown[] = [];
    const reconcilerOptions = {
      concurrency: 8,
      ratePerSecond: 500,
      initiatingGraceMs: 0,
      // A payout can land at the platform after the client gave up (here up to ~1.5 s later
      // on a loaded machine); absence proves nothing until well past that.
      settleWindowMs: SETTLE_WINDOW_MS,
      ...handlers,
    };
    const racing = shop.createReconciler(reconcilerOptions);
    racing.on('error', (error) => errors.push(error));
    const receiverWinsBefore = wins.receiver;
    racing.on('settled', () => (wins.reconciler += 1));
    racing.on('failed', () => (wins.reconciler += 1));
    // Payments nobody approves by themselves: settled by hand, some of each outcome.
    const settleByHand = async () => {
      for (const entry of sent.filter((s) => s.msisdn.endsWith('998'))) {
        const record = await store.records.get(entry.merchantReference);
        if (record?.controlNumber) {
          const outcome = next() < 0.5 ? 'success' : 'failed';
          await control('collection/settle', { ref_id: record.controlNumber, outcome });
        }
      }
    };
    const [first] = await Promise.all([racing.runOnce({ force: true }), settleByHand()]);
    await racing.close();
    await quiet();
    const receiverWinsDuringRace = wins.receiver - receiverWinsBefore;
    expect(sent.filter((s) => s.ambiguous).length).toBeGreaterThan(lateCount * 0.8);

    // No callback will come any more for a collection without references: the last pass
    // hands those over now. Payouts without a match wait for their settle window to close.
    const closing = shop.createReconciler({ ...reconcilerOptions, noReferenceWindowMs: 0 });
    closing.on('error', (error) => errors.push(error));
    closing.on('settled', () => (wins.reconciler += 1));
    closing.on('failed', () => (wins.reconciler += 1));
    const lastAttempt = Math.max(...atRace.map((record) => record?.attemptedAt?.getTime() ?? 0));
    const windowClosed = lastAttempt + SETTLE_WINDOW_MS + 200 - Date.now();
    if (windowClosed > 0) await new Promise((resolve) => setTimeout(resolve, windowClosed));
    const second = await closing.runOnce({ force: true });
    await closing.close();
    // Effects the reconciler left due (if any) are the receiver's drain's to run.
    await quiet();
    expect(errors).toEqual([]);
    expect(handlerErrors).toEqual([]);

    const contradictions: string[] = [];
    const tally: Record<string, number> = {};
    for (const entry of sent) {
      const record = await store.records.get(entry.merchantReference);
      if (!record) {
        contradictions.push(`${entry.merchantReference}: no record`);
        continue;
      }
      const truth = groundTruth(entry);
      const key = `${entry.product} ${record.status} (truth ${truth})`;
      tally[key] = (tally[key] ?? 0) + 1;
      if (record.status === 'success' && truth !== 'success') {
        contradictions.push(`${entry.merchantReference} ${entry.product}: success, truth ${truth}`);
      } else if (record.status === 'failed' && truth === 'success') {
        contradictions.push(`${entry.merchantReference} ${entry.product}: failed, truth success`);
      } else if (record.status === 'needs_review') {
        if (record.review === null || record.review.evidence === undefined) {
          contradictions.push(`${entry.merchantReference}: needs_review without evidence`);
        }
      } else if (record.status !== 'success' && record.status !== 'failed') {
        contradictions.push(
          `${entry.merchantReference} ${entry.product}: left ${record.status}, truth ${truth}`,
        );
      }
      // One effect per final record, whichever path won: its handler completed exactly once,
      // and the other outcome's handler never ran.
      const ref = entry.merchantReference;
      const runs = (kind: string) => completed.get(`${kind} ${ref}`) ?? 0;
      const kinds = record.product === 'collection' ? ['paid', 'failed'] : ['sent', 'not_sent'];
      const recharge = record.flow === 'airtime_recharge';
      if (recharge && record.status !== 'needs_review') {
        if (record.effect.status !== 'none' || kinds.some((kind) => runs(kind) !== 0)) {
          contradictions.push(`${ref}: a recharge ran a handler (effect ${record.effect.status})`);
        }
      } else if (record.status === 'success' || record.status === 'failed') {
        const [own, other] = record.status === 'success' ? kinds : [...kinds].reverse();
        if (runs(own!) !== 1 || runs(other!) !== 0 || record.effect.status !== 'done') {
          contradictions.push(
            `${ref} ${record.status}: on${own} completed ${runs(own!)} times, on${other} ` +
              `${runs(other!)} times, effect ${record.effect.status}`,
          );
        }
      } else if (record.status === 'needs_review' && runs('review') !== 1) {
        contradictions.push(`${ref}: onReview completed ${runs('review')} times`);
      }
    }
    console.info(
      `chaos: ${TOTAL} transactions, ${openAtRace.length} open when the reconciler started; ` +
        `pass 1 ${JSON.stringify(first)}; pass 2 ${JSON.stringify(second)}; ` +
        `final transitions won by the receiver ${wins.receiver} (${receiverWinsDuringRace} ` +
        `from the racing pass on), by the reconciler ${wins.reconciler}\n` +
        Object.entries(tally)
          .sort()
          .map(([key, n]) => `  ${key}: ${n}`)
          .join('\n'),
    );
    expect(contradictions).toEqual([]);
    // The run must have exercised what it claims to: unknowns in every product.
    for (const product of ['collection', 'airtime', 'disbursement'] as const) {
      expect(sent.filter((s) => s.product === product && s.ambiguous).length).toBeGreaterThan(0);
    }
    expect(openAtRace.length).toBeGreaterThan(TOTAL * 0.15);
    expect(first.settled + first.failed + first.review).toBeGreaterThan(0);
    // And both paths won records while the racing pass ran.
    expect(receiverWinsDuringRace).toBeGreaterThan(0);
    expect(wins.reconciler).toBeGreaterThan(0);
  }, 240_000);
});
