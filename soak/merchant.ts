// A merchant process: Express with the callback receiver mounted at /pesakit, its handlers
// appending to the merchant's own table. Started (and killed with SIGKILL, and started again on
// the same port) by the soak; prints one ready line.
import express from 'express';
import { pesakitExpress } from 'pesakit/express';
import { readChildConfig } from './child-config.js';
import { openHandlerRuns } from './handler-runs.js';
import { handlers, openStore, soakClient } from './merchant-side.js';

const config = readChildConfig();
const store = await openStore(config.store, config.location);
const runs = await openHandlerRuns(config.store, config.location);
const pesakit = soakClient(store, config.sandboxUrl, config.timeoutMs);
const receiver = pesakit.createCallbackReceiver({
  ...handlers(runs, config.instance),
  // The defaults a merchant gets (leases, polling), but for the retries of a failed handler,
  // shortened so that a run drains in minutes.
  retryDelaysMs: [500, 1000, 2000, 5000],
  recheckDelaysMs: [1000, 2000, 5000],
  // The verifier reads the inbox: nothing is pruned during a run.
  inboxRetention: false,
});
receiver.on('error', () => {});

const app = express();
app.use('/pesakit', pesakitExpress(receiver));
const server = app.listen(config.port, '127.0.0.1', () => {
  receiver.start();
  process.stdout.write(`ready ${config.instance}\n`);
});
server.on('error', (error) => {
  process.stderr.write(`${config.instance}: ${String(error)}\n`);
  process.exit(1);
});

process.once('SIGTERM', () => {
  server.close();
  receiver
    .close()
    .then(() => Promise.all([store.close(), runs.close()]))
    .finally(() => process.exit(0));
});
