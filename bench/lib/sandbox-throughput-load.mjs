// The load generator for bench/sandbox-throughput.mjs, in its own process so that it never
// shares an event loop (or a CPU profile) with a server it measures. Started once with an IPC
// channel; each message `{ url, headers, body, connections, duration, rate? }` is one autocannon
// run (`rate`: a fixed number of requests per second over all connections; without it, as many
// as the server answers), answered with autocannon's figures.
import autocannon from 'autocannon';

process.on('message', async ({ url, headers, body, connections, duration, rate }) => {
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    body,
    connections,
    duration,
    ...(rate === undefined ? {} : { overallRate: rate }),
  });
  process.send({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  });
});
process.once('disconnect', () => process.exit(0));
