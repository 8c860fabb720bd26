import { StoreFault } from '../errors/store-error.js';
import { TransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import { publishTransition } from '../observability/transitions.js';
import {
  parseMerchantReference,
  parseReferences,
  parseResolve,
  parseTransition,
} from '../references/input-rules.js';
import type { References, TransactionRecord } from '../references/record.js';
import type { ReviewVerdict } from '../references/review.js';
import type {
  RecordChange,
  ResolveOptions,
  TransactionIntent,
  TransactionRecords,
} from '../references/types.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import { changeFor, resolutionFor } from './changes.js';

/** One change of a record: a status, references, or both in one commit. */
export interface Move {
  /** The status to move to; absent, only `references` are attached. */
  to?: TransactionStatus;
  /** The platform's references the change claims for the record, in the same commit. */
  references?: References;
  /** The upstream payload that proved the change. */
  payload?: unknown;
  reason?: string;
  /** Required when moving to `needs_review`. */
  review?: ReviewVerdict;
  /** The provider the answer or callback names; kept only when the record has none yet. */
  provider?: string;
  /** When the platform acted (`attemptedAt`, `finalAt`). @default the commit's time */
  at?: Date;
}

export interface MoveResult {
  /** The record as it is after the move, or as the path that moved it first left it. */
  record: TransactionRecord;
  /** This move changed the status (exactly one caller across processes sees `true`). */
  changed: boolean;
  /** The status the record left (with `changed`), else the one it was in when read. */
  from: TransactionStatus;
  /**
   * Another path (a callback, a pull, a person, another worker) moved the record where this move
   * cannot follow before it committed: their status stands. The platform references this move
   * carried are still attached (the answer that named them is about this record).
   */
  overtaken: boolean;
}

/** What the ledger needs of a store: the records' write-ahead, read and commit. */
export interface LedgerStore {
  readonly records: Pick<TransactionRecords, 'create' | 'get' | 'move'>;
}

/**
 * Where every record of the store moves: the write-ahead intent, answers, failures, callbacks,
 * pulls, the reconciler's decisions, bulk rows and a person's resolve all come through here, and
 * nothing else calls the store's record-changing methods. It holds the rules every path shares:
 * a refused move because another path got there first is that path's win (decided once, here),
 * every committed change is published on `pesakit:record:transition`, and a reconciler's moves
 * carry its lease's fencing token, so a worker whose lease was taken over writes nothing.
 */
export class Ledger {
  readonly #store: LedgerStore;
  readonly #fence: string | undefined;

  constructor(store: LedgerStore, fence?: string) {
    this.#store = store;
    this.#fence = fence;
  }

  /** The same ledger for the holder of one lease: each move is fenced by `leaseToken`. */
  fenced(leaseToken: string): Ledger {
    return new Ledger(this.#store, leaseToken);
  }

  /** Write-ahead: the intent, stored before the request leaves. A duplicate is refused. */
  open(intent: TransactionIntent): Promise<TransactionRecord> {
    return this.#store.records.create(intent);
  }

  /** Commits one change; the current status again is a no-op (`changed: false`). */
  async move(merchantReference: string, move: Move): Promise<MoveResult> {
    const { to, references, ...details } = move;
    const reference = parseMerchantReference('move', merchantReference);
    const refs = parseReferences(references ?? {});
    const transition = to === undefined ? undefined : parseTransition(to, details);
    return this.#commit(reference, refs, (record) => {
      const change = transition && changeFor(record, transition);
      return change === 'refused' ? { overtaken: true } : { change, overtaken: false };
    });
  }

  /** A person's decision on a record in `needs_review`; its effect becomes due again. */
  async resolve(
    merchantReference: string,
    outcome: 'success' | 'failed',
    options: ResolveOptions,
  ): Promise<TransactionRecord> {
    const reference = parseMerchantReference('resolve', merchantReference);
    const decision = parseResolve(outcome, options);
    const { record } = await this.#commit(reference, {}, (current) => ({
      change: resolutionFor(current, decision),
      overtaken: false,
    }));
    return record;
  }

  /**
   * Reads the record, decides, and commits only while it is still in the status read; another
   * path that moved it in between is read again and decided against. Statuses only move forward
   * (at most four moves from `initiating`), so this ends after a few rounds on any store that
   * keeps its compare-and-set.
   */
  async #commit(
    reference: string,
    references: References,
    decide: (record: TransactionRecord) => {
      change?: RecordChange | undefined;
      overtaken: boolean;
    },
  ): Promise<MoveResult> {
    const claims = Object.keys(references).length > 0;
    for (let round = 0; round < maxRounds; round += 1) {
      const record = await this.#current(reference);
      const { change, overtaken } = decide(record);
      if (change === undefined && !claims) {
        return { record, changed: false, from: record.status, overtaken };
      }
      const commit = await this.#store.records.move(reference, {
        expected: record.status,
        ...(claims ? { references } : {}),
        ...(change === undefined ? {} : { change }),
        ...(this.#fence === undefined ? {} : { leaseToken: this.#fence }),
      });
      if (!commit.applied) continue;
      if (change !== undefined) {
        publishTransition(commit.record, record.status, change.resolution && 'review');
      }
      return {
        record: commit.record,
        changed: change !== undefined,
        from: record.status,
        overtaken,
      };
    }
    throw new StoreFault(
      `store.move() for ${reference} never applied in ${maxRounds} rounds although the record ` +
        'was in the expected status each time it was read: the store must compare the status ' +
        'and write in one transaction (see verifyStore in pesakit/testing)',
    );
  }

  async #current(merchantReference: string): Promise<TransactionRecord> {
    const record = await this.#store.records.get(merchantReference);
    if (record === undefined) throw new TransactionNotFoundError(merchantReference);
    return record;
  }
}

/** Statuses move forward at most four times; more refused rounds mean a broken store. */
const maxRounds = 8;

/**
 * A person's decision on a record in `needs_review`, the way the review CLI and the operations
 * page make it: `success` or `failed`, the note kept, the effect due again for the
 * application's handler, published as a `review` transition.
 */
export function resolveReview(
  store: LedgerStore,
  merchantReference: string,
  outcome: 'success' | 'failed',
  options: ResolveOptions,
): Promise<TransactionRecord> {
  return new Ledger(store).resolve(merchantReference, outcome, options);
}
