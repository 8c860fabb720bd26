import { isNotFoundError } from '../errors/not-found-error.js';
import { Ledger } from '../ledger/ledger.js';
import {
  type CollectionSettlement as SettlementResult,
  settleCollection,
} from '../ledger/settle-collection.js';
import { notVisibleWarning } from '../references/account.js';
import type { InboxEntry } from '../references/inbox/types.js';
import type { RecordAccount, TransactionRecord } from '../references/record.js';
import type { ReviewVerdict } from '../references/review.js';
import type { ReferenceStore } from '../references/types.js';
import { sameAmount } from '../schemas/amount.js';
import type { CollectionTransaction } from '../schemas/collection.js';
import type { Product } from '../schemas/product.js';
import type { EffectRunner } from '../settlement/effects.js';
import type { BacklogGauge } from './backlog-gauge.js';
import type { CallbackReceiverEvents } from './events.js';
import type { ExpiringMap } from './expiring-map.js';
import { findRecord, pullReferenceOf } from './find-record.js';
import { delayFor, type ResolvedReceiverOptions } from './options.js';
import type { RecordTurns } from './record-turns.js';
import type { SourceBudget } from './source-budget.js';
import { pullPriority, type StatusPuller, unknownReferenceMs } from './status-puller.js';

export type Disposition =
  | { kind: 'complete'; outcome: string }
  | { kind: 'reschedule'; dueAt: Date; note: string };

export interface ProcessContext {
  store: ReferenceStore;
  puller: StatusPuller;
  effects: EffectRunner;
  options: ResolvedReceiverOptions;
  emit<E extends keyof CallbackReceiverEvents>(event: E, ...args: CallbackReceiverEvents[E]): void;
  now(): Date;
  /** A new entry is in the inbox: the worker should look now, not at its next poll. */
  nudge(): void;
  /** What callbacks that are not an open record's may store, per source and in all (absent: no budget). */
  budget?: SourceBudget;
  /** Their other limit: the inbox's unfinished entries (absent with the budget). */
  backlog?: { gauge: BacklogGauge; max: number };
  /** Orphan references (or the records forgeries named) already handed to `onReview` within the hour. */
  orphans: ExpiringMap<true>;
  /** Each named record's head start and pull, once a window however many callbacks name it. */
  turns: RecordTurns;
  /** The client's account of each product (absent: every record is this client's). */
  account?: (product: Product) => RecordAccount;
}

/** Processes one entry: the callback is a hint, so the status is PULLED; throws to retry. */
export async function processEntry(
  context: ProcessContext,
  entry: InboxEntry,
): Promise<Disposition> {
  const { claim } = entry;
  const match = await findRecord(context.store, claim);
  if (!match) return orphan(context, entry);
  let record = match.record;
  if (
    record.status === 'success' ||
    record.status === 'failed' ||
    record.status === 'needs_review'
  ) {
    return { kind: 'complete', outcome: 'already_final' };
  }
  // Another account's record would answer 404: proving nothing, it is not pulled at all.
  const warning = context.account && notVisibleWarning(record, context.account(record.product));
  if (warning) {
    context.emit('warning', { ...warning, record, entryId: entry.id });
    return { kind: 'complete', outcome: 'not_visible' };
  }
  if (match.by === 'hint') {
    // Pulled by the callback's own reference (the record has none yet): every forgery naming
    // the record would be a new pull. One pull per window for the record; the rest wait, never
    // dropped — the genuine callback is how the record learns its reference.
    if (!context.turns.takePull(record.merchantReference)) return waitTurn(context, entry);
  }
  const reference =
    match.by === 'hint'
      ? (claim.controlNumber ?? claim.paymentReference)
      : (pullReferenceOf(record) as string);
  let transaction: CollectionTransaction;
  try {
    const priority = match.by === 'hint' ? pullPriority.other : pullPriority.known;
    transaction = await context.puller.pull(reference, priority);
  } catch (error) {
    if (!isNotFoundError(error)) {
      if (match.by === 'hint') context.turns.returnPull(record.merchantReference);
      throw error;
    }
    // The platform does not know the reference the callback named: nothing to confirm.
    if (match.by === 'hint') return orphan(context, entry, record.merchantReference);
    return notConfirmed(context, entry, record, 'does not know the transaction');
  }
  const ledger = new Ledger(context.store);
  if (match.by === 'hint') {
    const adopted = await adopt(ledger, record, transaction);
    if (!adopted) return orphan(context, entry, record.merchantReference);
    record = adopted;
  }
  const result = await settleCollection(ledger, record, transaction);
  if (result.outcome === 'pending') return stillPending(context, entry, result.record, transaction);
  await announce(context, result, entry.id);
  return { kind: 'complete', outcome: result.outcome };
}

/** A settlement this process won: its event, then its effect. */
export async function announce(
  context: ProcessContext,
  settlement: SettlementResult,
  entryId?: string,
): Promise<void> {
  const { record, outcome } = settlement;
  if (!settlement.changed || outcome === 'pending' || outcome === 'already_final') return;
  const entry = entryId === undefined ? {} : { entryId };
  if (outcome === 'review') {
    context.emit('review', { record, verdict: settlement.verdict, ...entry });
  } else {
    context.emit(outcome, { record, ...entry });
  }
  try {
    await context.effects.runFor(record.merchantReference);
  } catch (error) {
    // The transition is won and recorded; the effect stays due for the drain to retry.
    context.emit('error', { stage: 'effect', error: asError(error), ...entry });
  }
}

async function stillPending(
  context: ProcessContext,
  entry: InboxEntry,
  record: TransactionRecord,
  transaction: CollectionTransaction,
): Promise<Disposition> {
  const age = context.now().getTime() - entry.receivedAt.getTime();
  if (age < context.options.claimWindowMs) {
    const delay = delayFor(context.options.recheckDelaysMs, entry.attempts);
    const note = 'The platform still reports the collection as pending.';
    return { kind: 'reschedule', dueAt: new Date(context.now().getTime() + delay), note };
  }
  // Past the window the claim is only an event: the record stays pending for the reconciler,
  // and the genuine callback (or its pull) still settles it.
  return notConfirmed(context, entry, record, `still says ${transaction.status}`);
}

/** A claim the platform does not confirm: an `unconfirmed` event for a success claim, and done. */
function notConfirmed(
  context: ProcessContext,
  entry: InboxEntry,
  record: TransactionRecord,
  platform: string,
): Disposition {
  const { claim } = entry;
  if (claim.status === 'success') {
    const seconds = Math.round((context.now().getTime() - entry.receivedAt.getTime()) / 1000);
    context.emit('unconfirmed', {
      record,
      claim,
      entryId: entry.id,
      message: `A callback claimed ${record.merchantReference} was paid (${claim.amount} TZS), but after ${seconds} s the platform ${platform}; the record stays pending.`,
    });
  }
  return { kind: 'complete', outcome: claim.status === 'success' ? 'not_confirmed' : 'pending' };
}

/** A record found by hint takes the platform's references if the transaction is plausibly its own. */
async function adopt(
  ledger: Ledger,
  record: TransactionRecord,
  transaction: CollectionTransaction,
): Promise<TransactionRecord | undefined> {
  if (!sameAmount(record.amount, transaction.amount)) return undefined;
  if (record.msisdn && transaction.msisdn && record.msisdn !== transaction.msisdn) return undefined;
  if (pullReferenceOf(record) !== undefined) return record;
  const references = {
    controlNumber: transaction.controlNumber,
    paymentReference: transaction.reference,
    ...(transaction.external_reference
      ? { externalReference: transaction.external_reference }
      : {}),
  };
  // Pending now: references and status in one commit; otherwise the settlement moves it next.
  const pending = transaction.status === 'pending' && record.status !== 'pending';
  const { record: adopted } = await ledger.move(record.merchantReference, {
    references,
    ...(pending && {
      to: 'pending' as const,
      payload: transaction,
      reason: 'Found by its callback; the platform reports it pending.',
    }),
  });
  return adopted;
}

/** A callback naming a record whose turn was taken in this window: due again later, last. */
function waitTurn(context: ProcessContext, entry: InboxEntry): Disposition {
  const delay = Math.max(
    context.options.pullWindowMs,
    delayFor(context.options.recheckDelaysMs, entry.attempts),
  );
  return {
    kind: 'reschedule',
    dueAt: new Date(context.now().getTime() + delay),
    note: 'Another callback naming this record was pulled within pullWindowMs; this one waits its turn.',
  };
}

/**
 * A callback that no stored transaction confirms. `named`: the stored record it named by
 * `pesakit_ref` (its forgeries are one orphan), else the reference it claimed.
 */
async function orphan(
  context: ProcessContext,
  entry: InboxEntry,
  named?: string,
): Promise<Disposition> {
  const { claim } = entry;
  const key = named === undefined ? claim.paymentReference : `record:${named}`;
  // Once an hour per orphan in this process, however many callbacks name it.
  if (context.orphans.get(key)) return { kind: 'complete', outcome: 'orphan' };
  const verdict: ReviewVerdict = {
    reason: 'orphan',
    message: `A callback claiming ${claim.status} for ${claim.amount} TZS (paymentReference ${claim.paymentReference}) matches no stored transaction; check whether it belongs to this shop.`,
    evidence: { entryId: entry.id, claim, body: entry.body },
  };
  context.orphans.set(key, true, unknownReferenceMs);
  try {
    // At least once, like every handler: a throw retries the entry.
    await context.options.onReview?.(null, verdict, {
      effectKey: `orphan:${entry.id}`,
      attempt: entry.attempts,
    });
  } catch (error) {
    context.orphans.delete(key);
    throw error;
  }
  context.emit('orphan', { entryId: entry.id, claim, verdict });
  context.emit('review', { record: null, verdict, entryId: entry.id });
  return { kind: 'complete', outcome: 'orphan' };
}

export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
