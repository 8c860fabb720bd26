// The SDK's per-call cost over plain fetch: the same GET to the same loopback server, sent M
// times in sequence through plain fetch + JSON.parse (the baseline), through Transport, and
// through the public client (Pesakit). The difference is what the SDK adds per call: URL and
// auth resolution, timeout and retry plumbing, events, and response validation.
import { createServer } from 'node:http';
import { Pesakit, Transport } from 'pesakit';
import { printTable, summarize, us } from './lib/stats.mjs';

const CALLS = Number(process.env.BENCH_TRANSPORT_CALLS ?? 2000);
const WARMUP = 200;
// Bounds the whole measurement even if the machine is far slower than expected.
const TIME_BUDGET_MS = 60_000;
const ROUNDS = 4;
const USER_PATH = '/api/sandbox/disbursement/user';
const LOGIN_PATH = '/api/sandbox/disbursement/login';

const user = { id: 1, name: 'A', email: 'a@b.tz', phone: '255754000001', status: 'active' };
const userBody = JSON.stringify({ user, wallet: { balance: 1000 } });
const loginBody = JSON.stringify({ user, wallet: { balance: 1000 }, token: 't' });

// One fixed answer per route, so that the server's cost is the same for every subject.
const server = createServer((req, res) => {
  const body = req.url === USER_PATH ? userBody : req.url === LOGIN_PATH ? loginBody : undefined;
  req.resume();
  res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
  res.end(body ?? '{"message":"not found"}');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}`;

const transport = new Transport({ baseUrl });
transport.setToken('disbursement', 't');
// Pesakit exposes no setToken: it logs in once (during warm-up) and keeps the token.
const pesakit = new Pesakit({
  baseUrl,
  environment: 'sandbox',
  credentials: { disbursement: { email: 'a@b.tz', password: 'secret' } },
});

const subjects = {
  'fetch + JSON.parse': async () => {
    const response = await fetch(baseUrl + USER_PATH, {
      headers: { accept: 'application/json', authorization: 'Bearer t' },
    });
    return JSON.parse(await response.text());
  },
  'Transport.request': () => transport.request('disbursementUser'),
  'Pesakit disbursement.user()': () => pesakit.disbursement.user(),
};

// A subject that failed quietly (a 404 body, say) would be measuring the wrong path.
for (const [name, call] of Object.entries(subjects)) {
  const answer = await call();
  if (answer?.wallet?.balance !== 1000) throw new Error(`${name} got ${JSON.stringify(answer)}`);
}
for (const call of Object.values(subjects)) for (let i = 0; i < WARMUP; i++) await call();

// Rounds interleave the subjects, and each round starts with a different one, so that drift
// (GC debt, CPU frequency, other load) and the order itself are shared out between them.
const names = Object.keys(subjects);
const latencies = Object.fromEntries(names.map((name) => [name, []]));
const busy = Object.fromEntries(names.map((name) => [name, 0]));
const deadline = performance.now() + TIME_BUDGET_MS;
for (let round = 0; round < ROUNDS && performance.now() < deadline; round++) {
  const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
  for (const name of order) {
    const call = subjects[name];
    const roundStart = performance.now();
    for (let i = 0; i < CALLS / ROUNDS && performance.now() < deadline; i++) {
      const start = performance.now();
      await call();
      latencies[name].push(performance.now() - start);
    }
    busy[name] += performance.now() - roundStart;
  }
}
server.close();
server.closeAllConnections();

const baseline = summarize(latencies['fetch + JSON.parse']);
const rows = Object.entries(latencies).map(([name, samples]) => {
  const s = summarize(samples);
  return [
    name,
    String(s.count),
    ((s.count / busy[name]) * 1000).toFixed(0),
    us(s.mean),
    us(s.median),
    us(s.p95),
    `${(s.mean / baseline.mean).toFixed(2)}x`,
    `${(s.median / baseline.median).toFixed(2)}x`,
  ];
});

console.log(`transport overhead: sequential GET ${USER_PATH} to a loopback node:http server`);
console.log(
  `${CALLS} calls per subject in ${ROUNDS} interleaved rounds, after ${WARMUP} warm-up\n`,
);
printTable(
  ['subject', 'calls', 'ops/s', 'mean', 'median', 'p95', 'ratio (mean)', 'ratio (median)'],
  rows,
);
