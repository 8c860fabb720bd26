import type { Command } from 'commander';
import { runReviewList, runReviewResolve } from '../reconcile/run-review.js';
import { exitTwoOnParseErrors } from '../reconcile/usage-error.js';
import {
  finish,
  schemaOption,
  storeEnvironment,
  storeFromArgv,
  storeOption,
  wholeNumber,
} from './options.js';

const io = () => ({ out: process.stdout, err: process.stderr });

export function registerReviewCommand(program: Command): void {
  const review = exitTwoOnParseErrors(
    program
      .command('review')
      .description('Records in needs_review: list them, resolve them after checking.'),
  );

  const list = review
    .command('list')
    .description('List records in needs_review, oldest first. Exits 3 when there is any, else 0.')
    .addOption(storeOption())
    .addOption(schemaOption())
    .option('--limit <n>', 'at most this many', wholeNumber('--limit'))
    .option('--json', 'one JSON line per record, with the evidence')
    .addHelpText('after', storeEnvironment);
  exitTwoOnParseErrors(list);
  list.action(
    async (options: { store?: string; schema?: string; limit?: number; json?: boolean }) => {
      finish(await runReviewList({ ...options, storeFromArgv: storeFromArgv(list) }, io()));
    },
  );

  const resolve = review
    .command('resolve')
    .description('Decide a record in needs_review: success or failed, with a note saying why.')
    .argument('<merchantReference>', 'the record to resolve')
    .argument('<decision>', 'success or failed')
    .addOption(storeOption())
    .addOption(schemaOption())
    .requiredOption('--note <text>', 'what you checked and why (kept on the record)')
    .option('--by <name>', 'who decided (kept on the record)')
    .option('--json', 'print the outcome as one JSON line')
    .addHelpText('after', storeEnvironment);
  exitTwoOnParseErrors(resolve);
  resolve.action(
    async (
      merchantReference: string,
      decision: string,
      options: { store?: string; schema?: string; note: string; by?: string; json?: boolean },
    ) => {
      finish(
        await runReviewResolve(
          {
            ...options,
            merchantReference,
            status: decision,
            storeFromArgv: storeFromArgv(resolve),
          },
          io(),
        ),
      );
    },
  );
}
