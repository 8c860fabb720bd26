import type { Command } from 'commander';
import { disbursementBulkCommand } from '../bulk/run-bulk.js';
import { registerBulkCommand } from './bulk-command.js';

export function registerDisbursementCommand(program: Command): void {
  const disbursement = program.command('disbursement').description('Payout jobs.');
  registerBulkCommand(
    disbursement,
    disbursementBulkCommand,
    'Pay every row of an .xlsx or .csv file (header: msisdn, amount, name, optional reference), ' +
      'the wallet checked first.',
    (bulk) =>
      bulk.option(
        '--partial',
        'when the wallet does not cover every row, pay rows in order while they fit',
      ),
  );
}
