import { Command } from 'commander';
import { tolerateClosedOutput } from './closed-output.js';
import { registerAirtimeCommand } from './commands/airtime.js';
import { registerDashboardCommand } from './commands/dashboard.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerDisbursementCommand } from './commands/disbursement.js';
import { registerOpenApiCommand } from './commands/openapi.js';
import { registerReconcileCommand } from './commands/reconcile.js';
import { registerReviewCommand } from './commands/review.js';
import { registerSandboxCommand } from './commands/sandbox.js';
import { registerVerifyCommand } from './commands/verify.js';
import { exitTwoOnParseErrors } from './reconcile/usage-error.js';
import { packageVersion } from './version.js';

tolerateClosedOutput(process.stdout);
tolerateClosedOutput(process.stderr);

const program = new Command()
  .name('pesakit')
  .description('pesakit: SDK tools and a local sandbox of the mobile-money payments platform.')
  .version(packageVersion(), '-V, --version', 'print the version of pesakit')
  .showHelpAfterError();
exitTwoOnParseErrors(program);

registerSandboxCommand(program);
registerDemoCommand(program);
registerOpenApiCommand(program);
registerReconcileCommand(program);
registerReviewCommand(program);
registerAirtimeCommand(program);
registerDashboardCommand(program);
registerDisbursementCommand(program);
registerVerifyCommand(program);

await program.parseAsync(process.argv);
