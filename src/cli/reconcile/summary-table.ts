import Table from 'cli-table3';
import type { RunOutcome } from './pass-counts.js';

/**
 * The table printed when a run ends: what moved, what is still open, what needs a person.
 * Plain ASCII borders, so it reads the same in a terminal, a cron mail and a log file.
 */
export function summaryTable(outcome: RunOutcome): string {
  const { counts } = outcome;
  // Rare (a pass far slower than its rate, or a long 429 pause): a column only when it happened.
  const handedBack = counts.leaseExpired > 0;
  const table = new Table({
    head: [
      'checked',
      'settled',
      'failed',
      'still pending',
      'needs review',
      'errors',
      ...(handedBack ? ['lease expired'] : []),
    ],
    style: { head: [], border: [] },
    chars: asciiBorders,
  });
  table.push([
    counts.checked,
    counts.settled,
    counts.failed,
    counts.pending,
    counts.review,
    counts.errors,
    ...(handedBack ? [counts.leaseExpired] : []),
  ]);
  const seconds = (outcome.durationMs / 1000).toFixed(1);
  const review =
    outcome.needsReview === null
      ? 'Could not count the records in needs_review (see the error above).'
      : outcome.needsReview === 0
        ? 'Nothing waits for review.'
        : `${outcome.needsReview} record${outcome.needsReview === 1 ? '' : 's'} in needs_review: ` +
          'see `pesakit review list`, decide with `pesakit review resolve`.';
  return `${table.toString()}\n${seconds} s. ${review}\n`;
}

/** cli-table3's box-drawing default, in ASCII. */
export const asciiBorders = {
  top: '-',
  'top-mid': '+',
  'top-left': '+',
  'top-right': '+',
  bottom: '-',
  'bottom-mid': '+',
  'bottom-left': '+',
  'bottom-right': '+',
  left: '|',
  'left-mid': '+',
  mid: '-',
  'mid-mid': '+',
  right: '|',
  'right-mid': '+',
  middle: '|',
};
