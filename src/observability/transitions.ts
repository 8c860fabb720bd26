import { AsyncLocalStorage } from 'node:async_hooks';
import type { Product } from '../schemas/product.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import { transitionChannel } from './channels.js';
import type { TransitionSource, TransitionView } from './views.js';

/** What a transition view is made of: the record as committed (a `TransactionRecord`). */
export interface MovedRecord {
  readonly merchantReference: string;
  readonly product: Product;
  readonly status: TransactionStatus;
  readonly createdAt: Date;
}

/** What caused the store writes of the work in progress. */
const sources = new AsyncLocalStorage<TransitionSource>();

/** Runs `work` as the cause of the transitions it makes, while someone subscribes to them. */
export function withSource<R>(source: TransitionSource, work: () => R): R {
  return transitionChannel.hasSubscribers ? sources.run(source, work) : work();
}

/**
 * Publishes a committed status change on `pesakit:record:transition`. Its source is the one given
 * (a person's resolve) or that of the traced work that made it; a change pesakit's own work did
 * not cause (the application writing to the store itself) is not published.
 */
export function publishTransition(
  record: MovedRecord,
  from: TransactionStatus,
  given?: TransitionSource,
): void {
  if (!transitionChannel.hasSubscribers) return;
  const source = given ?? sources.getStore();
  if (source === undefined) return;
  const view: TransitionView = {
    merchantReference: record.merchantReference,
    product: record.product,
    from,
    to: record.status,
    source,
    createdAt: new Date(record.createdAt),
  };
  transitionChannel.publish(Object.freeze(view));
}
