// Requests a second the sandbox serves on `transaction/status` (bearer auth, validation, lookup,
// the platform's answer) against a bare Fastify POST route answering JSON, same run. Both
// servers run in their own processes; autocannon runs in this one. Rounds alternate bare and
// sandbox; the figure is the median of the rounds.
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  account,
  collectionPaths,
  collectionToken,
  median,
  quick,
  rawPost,
  report,
  spawnUntilListening,
  startSandbox,
} from './lib/common.mjs';

const ROUNDS = quick ? 1 : 3;
const SECONDS = quick ? 1 : 5;
const CONNECTIONS = 32;

const sandbox = await startSandbox({ accounts: [{ product: 'collection', ...account }] });
const bare = await spawnUntilListening([
  fileURLToPath(new URL('lib/bare-fastify.mjs', import.meta.url)),
]);
try {
  const token = await collectionToken(sandbox.url);
  const payment = await rawPost(sandbox.url + collectionPaths.initiateMno, token, {
    amount: 15000,
    msisdn: '255754123998',
  });
  const body = JSON.stringify({ ref_id: payment.controlNumber });
  const load = (url, duration) =>
    autocannon({
      url: url + collectionPaths.status,
      method: 'POST',
      connections: CONNECTIONS,
      duration,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    });
  if (!quick) for (const server of [bare, sandbox]) await load(server.url, 2);
  const rates = { bare: [], sandbox: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, server] of Object.entries({ bare, sandbox })) {
      const result = await load(server.url, SECONDS);
      if (result.non2xx + result.errors > 0) throw new Error(`${name}: failed requests`);
      rates[name].push(result.requests.average);
    }
  }
  const served = median(rates.sandbox);
  const baseline = median(rates.bare);
  report({
    benchmark: `Sandbox throughput, \`transaction/status\`, ${CONNECTIONS} connections`,
    figure: `${served.toFixed(0)} req/s`,
    baseline: `bare Fastify ${baseline.toFixed(0)} req/s`,
    ratio: served / baseline,
  });
} finally {
  await sandbox.close();
  await bare.close();
}
