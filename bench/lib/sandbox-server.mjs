// The sandbox in a process of its own: node sandbox-server.mjs '<seed json>' <recordLimit>.
// Prints `listening on <url>` once ready; closes on SIGTERM. Nothing settles by itself, so the
// engine's own callbacks never add load the benchmark did not send.
import { createSandbox } from 'pesakit/sandbox';

const [seedJson, recordLimit] = process.argv.slice(2);
const sandbox = await createSandbox({
  seed: JSON.parse(seedJson),
  recordLimit: Number(recordLimit),
  autoSettle: false,
});
const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
process.once('SIGTERM', () => sandbox.close().then(() => process.exit(0)));
console.log(`listening on ${url}`);
