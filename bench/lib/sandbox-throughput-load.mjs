// The load generator for bench/sandbox-throughput.mjs, in its own process so that it never
// shares an event loop (or a CPU profile) with a server it measures. Takes one JSON argument:
//   { url, headers, body, connections, duration, rate? }
// (`rate`: a fixed number of requests per second over all connections; without it, as many as
// the server answers) and prints autocannon's figures as one JSON line.
import autocannon from 'autocannon';

const { url, headers, body, connections, duration, rate } = JSON.parse(process.argv[2] ?? '{}');
const result = await autocannon({
  url,
  method: 'POST',
  headers,
  body,
  connections,
  duration,
  ...(rate === undefined ? {} : { overallRate: rate }),
});
console.log(
  JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }),
);
