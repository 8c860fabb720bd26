import {
  isInvalidTransitionError,
  isStoreInputError,
  isTransactionNotFoundError,
} from '../../errors/index.js';
import type { ReferenceStore, TransactionRecord } from '../../references/index.js';
import { parseResolve } from '../../references/input-rules.js';
import { exitCodes } from '../exit-codes.js';
import { describeStore, openStore, parseStoreLocation } from './open-store.js';
import { errorMessage, type ReporterStreams } from './reporter.js';
import { reviewJsonLine, reviewTable } from './review-output.js';
import { UsageError } from './usage-error.js';

/** Where the review commands find the store. */
export interface StoreFlags {
  store?: string;
  /** A PostgreSQL store's schema (`--schema`, `PESAKIT_STORE_SCHEMA`). @default 'public' */
  schema?: string;
  storeFromArgv: boolean;
}

async function withStore(
  command: string,
  flags: StoreFlags,
  io: ReporterStreams,
  work: (store: ReferenceStore) => Promise<number>,
  check: () => void = () => {},
): Promise<number> {
  let store: ReferenceStore | undefined;
  try {
    // Usage is checked before the store is opened: a wrong command line changes nothing.
    check();
    if (flags.store === undefined) {
      throw new UsageError(
        'Which store? Pass --store ./payments.sqlite (or a postgres:// URL), or set PESAKIT_STORE.',
      );
    }
    const location = parseStoreLocation(flags.store, flags.storeFromArgv, flags.schema);
    try {
      store = await openStore(location);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.err.write(
        `pesakit ${command}: cannot open the store ${describeStore(location)}: ${errorMessage(error)}\n`,
      );
      return exitCodes.runError;
    }
    return await work(store);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err.write(`pesakit ${command}: ${error.message}\n`);
      return exitCodes.usage;
    }
    io.err.write(`pesakit ${command}: ${errorMessage(error)}\n`);
    return exitCodes.runError;
  } finally {
    await store?.close();
  }
}

/**
 * `pesakit review list`: every record in needs_review, oldest first, as a table or JSON lines
 * (with the evidence). Exits 3 when there is any (as `reconcile` does), 0 when there is none.
 *
 * The store pages the queue by merchant reference (its keyset), so the whole queue is read and
 * then ordered by when each record entered review (`updatedAt`: nothing else writes a record in
 * needs_review), and `--limit` keeps the oldest: a person takes the longest-waiting first. The
 * queue is what people could not yet decide — people-sized, not a table scan's worth.
 */
export function runReviewList(
  flags: StoreFlags & { json?: boolean; limit?: number },
  io: ReporterStreams,
): Promise<number> {
  return withStore('review list', flags, io, async (store) => {
    const pageSize = 500;
    const queue: TransactionRecord[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await store.listReview({
        limit: pageSize,
        ...(after !== undefined ? { after } : {}),
      });
      queue.push(...page);
      const last = page.at(-1);
      if (last === undefined || page.length < pageSize) break;
      after = last.merchantReference;
    }
    const rows = queue
      .sort(
        (a, b) =>
          a.updatedAt.getTime() - b.updatedAt.getTime() ||
          (a.merchantReference < b.merchantReference ? -1 : 1),
      )
      .slice(0, flags.limit ?? queue.length);
    if (flags.json === true) {
      for (const record of rows) io.out.write(reviewJsonLine(record));
    } else {
      io.out.write(rows.length === 0 ? 'Nothing waits for review.\n' : reviewTable(rows));
    }
    return rows.length === 0 ? exitCodes.ok : exitCodes.needsReview;
  });
}

/**
 * `pesakit review resolve <merchantReference> success|failed --note …`: a person's decision.
 * Only a record in needs_review can be resolved; anything else is refused and nothing changes.
 * The merchant's onPaid/onFailed effect becomes due; the application's effect runner (or a
 * reconciler built with handlers) runs it — this command runs no merchant code itself.
 */
export function runReviewResolve(
  flags: StoreFlags & {
    merchantReference: string;
    status: string;
    note?: string;
    by?: string;
    json?: boolean;
  },
  io: ReporterStreams,
): Promise<number> {
  const note = flags.note?.trim() ?? '';
  const decision = flags.status;
  const check = () => {
    if (decision !== 'success' && decision !== 'failed') {
      throw new UsageError(
        `The decision must be success or failed, got ${JSON.stringify(decision)}.`,
      );
    }
    if (note === '') {
      throw new UsageError(
        '--note is required: say what you checked and why (it is kept on the record).',
      );
    }
    // The store's own rules for a decision (a note of at most 1000 characters, a name of at
    // most 200), checked before the store is opened: a person's typing is a usage error (exit
    // 2), not a failed run found only once the store refused it.
    try {
      parseResolve(decision, { note, ...(flags.by !== undefined ? { by: flags.by } : {}) });
    } catch (error) {
      if (!isStoreInputError(error)) throw error;
      throw new UsageError(
        error.message
          .replace(/^resolve: (note|by) /, '--$1 ')
          .replace(/ Nothing was changed\.$/, ''),
      );
    }
  };
  const work = async (store: ReferenceStore) => {
    if (decision !== 'success' && decision !== 'failed') return exitCodes.usage;
    try {
      const record = await store.resolve(flags.merchantReference, decision, {
        note,
        ...(flags.by !== undefined ? { by: flags.by } : {}),
      });
      if (flags.json === true) {
        io.out.write(
          `${JSON.stringify({
            event: 'resolved',
            merchantReference: record.merchantReference,
            status: record.status,
            note,
            by: flags.by ?? null,
          })}\n`,
        );
      } else {
        io.out.write(
          `resolved  ${record.merchantReference} → ${record.status} (${note})` +
            `${flags.by !== undefined ? ` by ${flags.by}` : ''}\n`,
        );
      }
      return exitCodes.ok;
    } catch (error) {
      if (isTransactionNotFoundError(error)) {
        io.err.write(
          `pesakit review resolve: no record has the merchant reference ${flags.merchantReference}.\n`,
        );
        return exitCodes.runError;
      }
      if (isInvalidTransitionError(error)) {
        const record = await store.get(flags.merchantReference);
        io.err.write(
          `pesakit review resolve: ${flags.merchantReference} is ${record?.status ?? 'gone'}, not ` +
            'needs_review: only a record in needs_review can be resolved. Nothing was changed.\n',
        );
        return exitCodes.runError;
      }
      throw error;
    }
  };
  return withStore('review resolve', flags, io, work, check);
}
