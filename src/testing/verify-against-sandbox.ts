import { parseCallback } from '../callbacks/parse-callback.js';
import type { ReferenceStore, TransactionRecord } from '../references/index.js';
import type { TransactionView } from '../sandbox/index.js';
import { sameAmount } from '../schemas/amount.js';
import { readSandboxTruth, type SandboxLocation, type SandboxTruth } from './sandbox-truth.js';
import { type StoreReader, storeReader } from './store-reader.js';

export type { SandboxLocation } from './sandbox-truth.js';

/** One thing found wrong, with the reference to look it up by. */
export interface VerifyViolation {
  /** The merchant reference, or the platform's reference when no record has it. */
  reference: string;
  message: string;
}

/** One invariant: how much was checked, and every violation found. */
export interface VerifyCheck {
  id:
    | 'final_agrees'
    | 'open_not_final'
    | 'every_transaction_recorded'
    | 'never_twice'
    | 'callbacks_in_inbox'
    | 'effects_completed'
    | 'wallet_ledger'
    | 'merchant_effects';
  /** What holds when the check passes, in a few words. */
  title: string;
  ok: boolean;
  /** How many things were checked. */
  checked: number;
  /** The counts behind the verdict, in words. */
  summary: string;
  violations: VerifyViolation[];
}

export interface VerifyReport {
  /** True only when every check holds. */
  ok: boolean;
  checks: VerifyCheck[];
}

export interface VerifyAgainstSandboxOptions {
  /** The store your integration wrote (read only: nothing is changed). */
  store: ReferenceStore;
  /** The sandbox's base URL, or `{ url, controlKey }` when its control API needs a key. */
  sandbox: string | SandboxLocation;
  /**
   * How many times your own side (fulfilment, a ledger row, an e-mail) ran for a merchant
   * reference: checked to be 1 for every settled record and 0 for every open one.
   */
  effectsOf?: (merchantReference: string) => number | Promise<number>;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * Checks a store against the sandbox's own truth (its transactions, request log, delivery log
 * and wallet ledger). Run it after a drain: chaos paused, callbacks delivered, the reconciler
 * passed until nothing open is due. Nothing in the store or the sandbox is changed.
 */
export async function verifyAgainstSandbox(
  options: VerifyAgainstSandboxOptions,
): Promise<VerifyReport> {
  const location = typeof options.sandbox === 'string' ? { url: options.sandbox } : options.sandbox;
  const truth = await readSandboxTruth(location, options.fetch);
  const reader = storeReader(options.store);
  const records = await reader.records();
  const world = new World(truth, records);
  const checks = [
    finalAgrees(world),
    openNotFinal(world),
    everyTransactionRecorded(world),
    neverTwice(world),
    await callbacksInInbox(world, reader),
    await effectsCompleted(world, reader),
    walletLedger(world),
    await merchantEffects(world, reader, options.effectsOf),
  ];
  return { ok: checks.every((check) => check.ok), checks };
}

/** The report as lines: one per check with its counts, then its violations (at most `detail`). */
export function formatVerifyReport(report: VerifyReport, detail = 20): string[] {
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${check.ok ? 'ok  ' : 'FAIL'} ${check.title}: ${check.summary}`);
    for (const violation of check.violations.slice(0, detail)) {
      lines.push(`       ${violation.reference}: ${violation.message}`);
    }
    if (check.violations.length > detail) {
      lines.push(`       … and ${check.violations.length - detail} more`);
    }
  }
  const failed = report.checks.filter((check) => !check.ok).length;
  lines.push(
    report.ok
      ? `verified: all ${report.checks.length} checks hold`
      : `NOT verified: ${failed} of ${report.checks.length} checks failed`,
  );
  return lines;
}

type PlatformStatus = 'pending' | 'success' | 'failed';

/** The two sides, indexed: every platform reference to its transaction and to its record. */
class World {
  readonly byPlatformReference = new Map<string, TransactionView>();
  readonly byMerchantReference = new Map<string, TransactionView>();
  readonly recordByReference = new Map<string, TransactionRecord>();

  constructor(
    readonly truth: SandboxTruth,
    readonly records: readonly TransactionRecord[],
  ) {
    for (const transaction of truth.transactions) {
      for (const reference of platformReferences(transaction)) {
        this.byPlatformReference.set(reference, transaction);
      }
      if (transaction.merchant_reference !== null) {
        this.byMerchantReference.set(transaction.merchant_reference, transaction);
      }
    }
    for (const record of records) {
      this.recordByReference.set(record.merchantReference, record);
      for (const reference of recordReferences(record)) {
        this.recordByReference.set(reference, record);
      }
    }
  }

  /** The platform's transaction for a record: by its merchant reference, else by its references. */
  transactionOf(record: TransactionRecord): TransactionView | undefined {
    const byOwn = this.byMerchantReference.get(record.merchantReference);
    if (byOwn) return byOwn;
    for (const reference of recordReferences(record)) {
      const found = this.byPlatformReference.get(reference);
      if (found) return found;
    }
    return undefined;
  }

  recordOf(transaction: TransactionView): TransactionRecord | undefined {
    const byOwn =
      transaction.merchant_reference === null
        ? undefined
        : this.recordByReference.get(transaction.merchant_reference);
    if (byOwn) return byOwn;
    for (const reference of platformReferences(transaction)) {
      const found = this.recordByReference.get(reference);
      if (found) return found;
    }
    return undefined;
  }
}

function platformReferences(transaction: TransactionView): string[] {
  const { controlNumber, reference, external_reference, txnid, refid } = transaction;
  return [controlNumber, reference, external_reference, txnid, refid].filter(
    (value): value is string => value !== null,
  );
}

function recordReferences(record: TransactionRecord): string[] {
  const { controlNumber, paymentReference, externalReference, txnid, refid } = record;
  return [controlNumber, paymentReference, externalReference, refid, txnid].filter(
    (value): value is string => value !== null,
  );
}

/** A payout's `completed` is success; every other status is the platform's own word. */
function platformStatus(transaction: TransactionView): PlatformStatus {
  if (transaction.status === 'completed' || transaction.status === 'success') return 'success';
  return transaction.status === 'failed' ? 'failed' : 'pending';
}

function describe(transaction: TransactionView): string {
  const reference = platformReferences(transaction)[0] ?? `#${transaction.seq}`;
  return `${transaction.kind} ${reference} (${transaction.status}, TZS ${transaction.paid_amount ?? transaction.amount})`;
}

const isFinal = (record: TransactionRecord) =>
  record.status === 'success' || record.status === 'failed';
const isOpen = (record: TransactionRecord) =>
  record.status === 'initiating' || record.status === 'pending' || record.status === 'unknown';

function check(
  id: VerifyCheck['id'],
  title: string,
  checked: number,
  summary: string,
  violations: VerifyViolation[],
): VerifyCheck {
  return { id, title, ok: violations.length === 0, checked, summary, violations };
}

/** A final record says what the platform says: success only when paid, in full; failed only when not. */
function finalAgrees(world: World): VerifyCheck {
  const violations: VerifyViolation[] = [];
  const finals = world.records.filter(isFinal);
  for (const record of finals) {
    const transaction = world.transactionOf(record);
    const reference = record.merchantReference;
    if (!transaction) {
      if (record.status === 'success') {
        violations.push({
          reference,
          message: 'success, but the platform holds no such transaction',
        });
      }
      continue;
    }
    const status = platformStatus(transaction);
    if (record.status === 'success' && status !== 'success') {
      violations.push({
        reference,
        message: `success, but the platform holds ${describe(transaction)}`,
      });
    } else if (record.status === 'failed' && status === 'success') {
      violations.push({
        reference,
        message: `failed, but the platform holds ${describe(transaction)}`,
      });
    } else if (
      record.status === 'success' &&
      !sameAmount(record.amount, transaction.paid_amount ?? transaction.amount)
    ) {
      violations.push({
        reference,
        message: `success for TZS ${record.amount}, but the platform holds ${describe(transaction)}`,
      });
    }
  }
  return check(
    'final_agrees',
    'final records agree with the platform',
    finals.length,
    `${finals.length} final records, ${violations.length} contradicted`,
    violations,
  );
}

/** After a drain nothing stays open that the platform already holds final. */
function openNotFinal(world: World): VerifyCheck {
  const violations: VerifyViolation[] = [];
  const open = world.records.filter(isOpen);
  for (const record of open) {
    const transaction = world.transactionOf(record);
    if (transaction && platformStatus(transaction) !== 'pending') {
      violations.push({
        reference: record.merchantReference,
        message: `${record.status}, but the platform holds ${describe(transaction)}`,
      });
    }
  }
  return check(
    'open_not_final',
    'nothing open that the platform holds final',
    open.length,
    `${open.length} open records, ${violations.length} already final on the platform`,
    violations,
  );
}

/** Everything the platform holds was written ahead as a record: nothing was sent outside it. */
function everyTransactionRecorded(world: World): VerifyCheck {
  const violations: VerifyViolation[] = [];
  for (const transaction of world.truth.transactions) {
    if (world.recordOf(transaction)) continue;
    violations.push({
      reference: transaction.merchant_reference ?? platformReferences(transaction)[0] ?? '',
      message: `the platform holds ${describe(transaction)}, and the store has no record of it`,
    });
  }
  const total = world.truth.transactions.length;
  return check(
    'every_transaction_recorded',
    'every platform transaction has a record',
    total,
    `${total} platform transactions, ${violations.length} without a record`,
    violations,
  );
}

/** The request log shows each merchant reference acted on at most once. */
function neverTwice(world: World): VerifyCheck {
  const violations: VerifyViolation[] = [];
  const byReference = new Map<string, Array<SandboxTruth['requests'][number]>>();
  let anonymous = 0;
  for (const request of world.truth.requests) {
    // A hosted checkout's phone or card step acts on the checkout the initiation opened.
    if (request.operation.startsWith('checkout_')) continue;
    if (request.merchant_reference === null) {
      anonymous += 1;
      continue;
    }
    const seen = byReference.get(request.merchant_reference) ?? [];
    seen.push(request);
    byReference.set(request.merchant_reference, seen);
  }
  for (const [reference, requests] of byReference) {
    if (requests.length < 2) continue;
    const what = requests.map((request) => `${request.operation} ${request.reference}`).join(', ');
    violations.push({ reference, message: `acted on ${requests.length} times: ${what}` });
  }
  if (world.truth.dropped.requests > 0) {
    violations.push({
      reference: '(request log)',
      message: `the sandbox dropped ${world.truth.dropped.requests} requests from its log: raise logLimit`,
    });
  }
  return check(
    'never_twice',
    'no money request acted on twice',
    world.truth.requests.length,
    `${world.truth.requests.length} requests acted on, ${byReference.size} merchant references, ${violations.length} acted on twice` +
      (anonymous > 0 ? `, ${anonymous} without a merchant reference` : ''),
    violations,
  );
}

/** A callback answered 2xx was stored before the answer: its inbox entry exists. */
async function callbacksInInbox(world: World, reader: StoreReader): Promise<VerifyCheck> {
  const violations: VerifyViolation[] = [];
  const acknowledged = world.truth.deliveries.filter(
    (delivery) => delivery.outcome === 'delivered',
  );
  const keysByReference = new Map<string, Set<string>>();
  let checked = 0;
  for (const delivery of acknowledged) {
    // The key the receiver computed: the same parse of the same bytes the sandbox sent.
    const parsed = parseCallback(JSON.stringify(delivery.payload) ?? 'null', null);
    if (!parsed.ok) continue;
    checked += 1;
    const { paymentReference } = parsed.callback.claim;
    let keys = keysByReference.get(paymentReference);
    if (!keys) {
      keys = await reader.inboxKeys(paymentReference);
      keysByReference.set(paymentReference, keys);
    }
    if (!keys.has(parsed.callback.dedupKey)) {
      violations.push({
        reference:
          world.recordByReference.get(paymentReference)?.merchantReference ?? paymentReference,
        message: `the callback for ${paymentReference} (delivery ${delivery.id}, attempt ${delivery.attempt}) was answered ${delivery.status ?? '2xx'} and is not in the inbox`,
      });
    }
  }
  if (world.truth.dropped.deliveries > 0) {
    violations.push({
      reference: '(delivery log)',
      message: `the sandbox dropped ${world.truth.dropped.deliveries} deliveries from its log: raise logLimit`,
    });
  }
  return check(
    'callbacks_in_inbox',
    'every acknowledged callback is in the inbox',
    checked,
    `${checked} callbacks answered 2xx, ${violations.length} missing from the inbox`,
    violations,
  );
}

/** No handler run was given up, and every settled record's run completed. */
async function effectsCompleted(world: World, reader: StoreReader): Promise<VerifyCheck> {
  const violations: VerifyViolation[] = [];
  const dead = await reader.deadEffects();
  for (const record of dead) {
    violations.push({
      reference: record.merchantReference,
      message: `its ${record.status} handler is dead: ${record.effect.lastError ?? 'no error kept'}`,
    });
  }
  const deadReferences = new Set(dead.map((record) => record.merchantReference));
  const settled = world.records.filter((record) => isFinal(record) && reader.hasEffect(record));
  for (const record of settled) {
    if (reader.effectDone(record) || deadReferences.has(record.merchantReference)) continue;
    violations.push({
      reference: record.merchantReference,
      message: `${record.status}, and its handler run is ${record.effect.status}, not done`,
    });
  }
  return check(
    'effects_completed',
    'every settled record ran its handler, none dead',
    settled.length,
    `${settled.length} settled records with a handler, ${dead.length} dead, ${violations.length - dead.length} not completed`,
    violations,
  );
}

const debitKinds = new Set(['payout', 'charge', 'airtime']);

/** Every wallet movement matches a final record, and every final record that moves a wallet moved it. */
function walletLedger(world: World): VerifyCheck {
  const violations: VerifyViolation[] = [];
  const moved = new Map<
    string,
    { payout: number; charge: number; airtime: number; recharge: number }
  >();
  for (const entry of world.truth.ledger) {
    if (entry.kind === 'credit') continue;
    const sums = moved.get(entry.reference) ?? { payout: 0, charge: 0, airtime: 0, recharge: 0 };
    sums[entry.kind] += debitKinds.has(entry.kind) ? -entry.amount : entry.amount;
    moved.set(entry.reference, sums);
  }
  let checked = 0;
  // Each wallet movement belongs to a record: by its platform reference, else through the
  // transaction's merchant reference (an answer lost after acting leaves the record without it).
  const byRecord = new Map<
    string,
    { record: TransactionRecord; amount: number; references: string[] }
  >();
  for (const [reference, sums] of moved) {
    checked += 1;
    const transaction = world.byPlatformReference.get(reference);
    const record =
      world.recordByReference.get(reference) ??
      (transaction === undefined ? undefined : world.recordOf(transaction));
    if (!record) {
      violations.push({
        reference,
        message: 'the wallet moved for it, and the store has no record',
      });
      continue;
    }
    // A payout's charge is the platform's own, unknown to the store: it must be the charge the
    // payout's transaction names, taken with the payout and never without it.
    const charged = transaction?.charge ?? 0;
    if (!sameAmount(sums.charge, sums.payout === 0 ? 0 : charged)) {
      violations.push({
        reference: record.merchantReference,
        message: `the wallet was charged TZS ${sums.charge} for ${reference}, which paid TZS ${sums.payout} with a charge of TZS ${charged}`,
      });
    }
    const total = byRecord.get(record.merchantReference) ?? { record, amount: 0, references: [] };
    total.amount += sums.payout + sums.airtime + sums.recharge;
    total.references.push(reference);
    byRecord.set(record.merchantReference, total);
  }
  // Each record's movements together: none for a failed one, exactly its amount for a success.
  for (const { record, amount, references } of byRecord.values()) {
    const where = references.join(', ');
    if (record.status === 'failed') {
      violations.push({
        reference: record.merchantReference,
        message: `failed, but the wallet moved TZS ${amount} for ${where}`,
      });
    } else if (record.status === 'success' && !sameAmount(amount, record.amount)) {
      violations.push({
        reference: record.merchantReference,
        message: `success for TZS ${record.amount}, but the wallet moved TZS ${amount} for ${where}`,
      });
    }
  }
  // Each successful record of a wallet product: its movement.
  for (const record of world.records) {
    if (record.status !== 'success' || record.product === 'collection') continue;
    const reference =
      record.product === 'disbursement'
        ? record.refid
        : record.flow === 'airtime_recharge'
          ? record.controlNumber
          : record.paymentReference;
    if (reference !== null && moved.has(reference)) continue;
    checked += 1;
    violations.push({
      reference: record.merchantReference,
      message: `success, but the wallet never moved for ${reference ?? 'it (no platform reference)'}`,
    });
  }
  return check(
    'wallet_ledger',
    'the wallet ledger agrees with the final records',
    checked,
    `${moved.size} wallet movements, ${violations.length} disagreeing`,
    violations,
  );
}

/** Your own side ran exactly once for every settled record, and not for an open one. */
async function merchantEffects(
  world: World,
  reader: StoreReader,
  effectsOf: VerifyAgainstSandboxOptions['effectsOf'],
): Promise<VerifyCheck> {
  const title = "the merchant's own side ran once per settled record";
  if (!effectsOf)
    return check('merchant_effects', title, 0, 'not checked (no effectsOf given)', []);
  const violations: VerifyViolation[] = [];
  let checked = 0;
  for (const record of world.records) {
    const settled = isFinal(record) && reader.hasEffect(record);
    if (!settled && !isOpen(record)) continue;
    checked += 1;
    const expected = settled ? 1 : 0;
    const ran = await effectsOf(record.merchantReference);
    if (ran !== expected) {
      violations.push({
        reference: record.merchantReference,
        message: `${record.status}: your side ran ${ran} times, expected ${expected}`,
      });
    }
  }
  return check(
    'merchant_effects',
    title,
    checked,
    `${checked} records, ${violations.length} ran other than expected`,
    violations,
  );
}
