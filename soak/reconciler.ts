// A reconciler process: passes in a loop with the merchant's handlers, its windows shortened for
// the run. Told `drain` (by message, or at start), each pass checks every open record, not only
// those due. Killed with SIGKILL and started again by the soak; prints one ready line.
import { readChildConfig } from './child-config.js';
import { openHandlerRuns } from './handler-runs.js';
import { handlers, openStore, soakClient } from './merchant-side.js';

const config = readChildConfig();
const store = await openStore(config.store, config.location);
const runs = await openHandlerRuns(config.store, config.location);
const pesakit = soakClient(store, config.sandboxUrl, config.timeoutMs);
const reconciler = pesakit.createReconciler({
  ...handlers(runs, config.instance),
  concurrency: 8,
  ratePerSecond: 400,
  // Each window is still longer than a request in flight (timeoutMs plus a late answer), so a
  // record being sent is never taken for a lost one. Leases are the default.
  initiatingGraceMs: 4 * config.timeoutMs,
  settleWindowMs: 8 * config.timeoutMs,
  noReferenceWindowMs: 8 * config.timeoutMs,
});
reconciler.on('error', () => {});

let drain = config.drain;
let stopping = false;
process.on('message', (message) => {
  if (message === 'drain') drain = true;
});
process.once('SIGTERM', () => {
  stopping = true;
});

process.stdout.write(`ready ${config.instance}\n`);
while (!stopping) {
  try {
    await reconciler.runOnce(drain ? { force: true } : {});
  } catch {
    // The store or the platform was unreachable (a database restart, a fault): the next pass
    // tries again, as a cron job would.
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
}
await reconciler.close();
await Promise.all([store.close(), runs.close()]);
process.exit(0);
