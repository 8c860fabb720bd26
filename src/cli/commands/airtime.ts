import type { Command } from 'commander';
import { airtimeBulkCommand } from '../bulk/run-bulk.js';
import { registerBulkCommand } from './bulk-command.js';

export function registerAirtimeCommand(program: Command): void {
  const airtime = program.command('airtime').description('Airtime jobs.');
  registerBulkCommand(
    airtime,
    airtimeBulkCommand,
    'Send airtime to every row of an .xlsx or .csv file (header: msisdn, amount, optional reference).',
  );
}
