import { randomUUID } from 'node:crypto';
import { TransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import { type EffectClaim, type EffectKind, isOfKind } from './effects.js';
import type { ParsedClaim } from './input-rules.js';
import { byEffectDue } from './reconciliation-order.js';
import type { EffectStatus, TransactionRecord } from './record.js';
import { copyRecord } from './record-copy.js';

/** The memory store's effect outbox; leases beside the records: one not in the map is none. */
export class MemoryEffects {
  readonly #records: ReadonlyMap<string, TransactionRecord>;
  readonly #leases = new Map<string, { token: string; until: number }>();
  readonly #now: () => Date;
  constructor(records: ReadonlyMap<string, TransactionRecord>, now: () => Date) {
    this.#records = records;
    this.#now = now;
  }
  claim(options: ParsedClaim): EffectClaim[] {
    const { leaseMs, limit, merchantReference, handles } = options;
    const now = this.#now().getTime();
    const candidates =
      merchantReference === undefined
        ? [...this.#records.values()]
        : [this.#records.get(merchantReference)].filter((record) => record !== undefined);
    const claimable = candidates
      .filter((record) => this.#isClaimable(record, now) && handled(record, handles))
      .sort(byEffectDue)
      .slice(0, limit);
    return claimable.map((record) => {
      const token = randomUUID();
      this.#leases.set(record.merchantReference, { token, until: now + leaseMs });
      record.effect = { ...record.effect, status: 'running', attempts: record.effect.attempts + 1 };
      return { record: copyRecord(record), token };
    });
  }
  complete(merchantReference: string, token: string): boolean {
    const record = this.#holding(merchantReference, token);
    if (!record) return false;
    record.effect = {
      ...record.effect,
      status: 'done',
      dueAt: null,
      lastError: null,
      completedAt: this.#now(),
    };
    this.#leases.delete(merchantReference);
    return true;
  }
  fail(merchantReference: string, token: string, failure: { error: string; retryAt: Date | null }) {
    const record = this.#holding(merchantReference, token);
    if (!record) return false;
    record.effect = {
      ...record.effect,
      status: failure.retryAt === null ? 'dead' : 'due',
      dueAt: failure.retryAt,
      lastError: failure.error,
    };
    this.#leases.delete(merchantReference);
    return true;
  }
  list(
    status: Exclude<EffectStatus, 'none' | 'done'>,
    limit: number,
    handles: readonly EffectKind[],
  ): TransactionRecord[] {
    return [...this.#records.values()]
      .filter((record) => record.effect.status === status && handled(record, handles))
      .sort(byEffectDue)
      .slice(0, limit)
      .map(copyRecord);
  }
  retry(merchantReference: string): { record: TransactionRecord; retried: boolean } {
    const record = this.#records.get(merchantReference);
    if (!record) throw new TransactionNotFoundError(merchantReference);
    const retried = record.effect.status === 'dead';
    if (retried)
      record.effect = { ...record.effect, status: 'due', attempts: 0, dueAt: this.#now() };
    return { record: copyRecord(record), retried };
  }
  /** The record's status moved: a new effect replaced the leased one. */
  forget(merchantReference: string): void {
    this.#leases.delete(merchantReference);
  }
  #isClaimable(record: TransactionRecord, now: number): boolean {
    const { status, dueAt } = record.effect;
    if (status === 'due') return dueAt === null || dueAt.getTime() <= now;
    if (status !== 'running') return false;
    const lease = this.#leases.get(record.merchantReference);
    return lease === undefined || lease.until <= now;
  }
  #holding(merchantReference: string, token: string): TransactionRecord | undefined {
    const lease = this.#leases.get(merchantReference);
    const record = this.#records.get(merchantReference);
    if (!lease || !record || lease.token !== token || record.effect.status !== 'running') {
      return undefined;
    }
    return lease.until > this.#now().getTime() ? record : undefined;
  }
}

function handled(record: TransactionRecord, handles: readonly EffectKind[]): boolean {
  return handles.some((kind) => isOfKind(record, kind));
}
