import {
  isInvalidTransitionError,
  isStoreInputError,
  isTransactionNotFoundError,
} from '../../errors/index.js';
import { resolveReview } from '../../ledger/ledger.js';
import type { ReferenceStore } from '../../references/index.js';
import { parseResolve } from '../../references/input-rules.js';
import { exitCodes } from '../exit-codes.js';
import type { ReporterStreams } from '../output.js';
import { reviewQueue } from './count-review.js';
import { type StoreFlags, withStore } from './open-store.js';
import { reviewJsonLine, reviewTable } from './review-output.js';
import { UsageError } from './usage-error.js';

/** `pesakit review list`: needs_review records, longest-waiting first; exits 3 when any, else 0. */
export function runReviewList(
  flags: StoreFlags & { json?: boolean; limit?: number },
  io: ReporterStreams,
): Promise<number> {
  return withStore(
    'review list',
    flags,
    io,
    () => {},
    async (store) => {
      const rows = (await reviewQueue(store))
        .sort(
          (a, b) =>
            a.updatedAt.getTime() - b.updatedAt.getTime() ||
            (a.merchantReference < b.merchantReference ? -1 : 1),
        )
        .slice(0, flags.limit);
      if (flags.json === true) {
        for (const record of rows) io.out.write(reviewJsonLine(record));
      } else {
        io.out.write(rows.length === 0 ? 'Nothing waits for review.\n' : reviewTable(rows));
      }
      return rows.length === 0 ? exitCodes.ok : exitCodes.needsReview;
    },
  );
}

/** `pesakit review resolve`: its effect becomes due for the application; runs no merchant code. */
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
  const resolution = { note, ...(flags.by !== undefined ? { by: flags.by } : {}) };
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
    // The store's rules for a decision, checked before it opens: a typo is a usage error (exit 2).
    try {
      parseResolve(decision, resolution);
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
      const record = await resolveReview(store, flags.merchantReference, decision, resolution);
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
        const record = await store.records.get(flags.merchantReference);
        io.err.write(
          `pesakit review resolve: ${flags.merchantReference} is ${record?.status ?? 'gone'}, not ` +
            'needs_review: only a record in needs_review can be resolved. Nothing was changed.\n',
        );
        return exitCodes.runError;
      }
      throw error;
    }
  };
  return withStore('review resolve', flags, io, check, work);
}
