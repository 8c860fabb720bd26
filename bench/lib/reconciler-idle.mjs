// Where does the reconciler's main thread wait? reconciler-pipeline.mjs showed the event loop
// idle 9–15 % of a pass (0.85–0.91 of a core, against 0.95 for the SDK's status() loop). This
// runs the same pass (the reconciler's forced runOnce over a SQLite file, the sandbox in its
// own process) and attributes every slice of event-loop idle time
// (`performance.eventLoopUtilization()`, read at each change of state) to what the pass was
// doing then:
//
//   start     the pass began, no status request sent yet (the first lease page)
//   full      all `concurrency` requests in flight: waiting for the platform (as every subject)
//   short     fewer in flight, a lease page in flight (checks may be waiting for the page)
//   gap       fewer in flight, no lease in flight: a slot is free and nothing waits on the store
//   tail      the last response is in, runOnce() has not resolved (the last release batch)
//
// It also prints the lease and release round trips (call → resolve, on the schedule thread),
// and, for `--subjects sdk`, the same breakdown for the SDK's status() loop (start/full/gap).
// Diagnostic: prints, asserts nothing. Linux or not (no /proc needed).
//
//   node bench/lib/reconciler-idle.mjs [--dist /tmp/other-dist] [--passes 4] [--subjects reconciler,sdk]
//        [--profile out.cpuprofile]
//   BENCH_RECONCILER_RECORDS=3000 (default)
import { rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join, resolve } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startSandboxProcess } from './sandbox-process.mjs';
import { account, seed, seedPendingCollections } from './seed-store.mjs';

const argValue = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const dist = argValue('--dist');
const PASSES = Number(argValue('--passes') ?? 4);
const SUBJECTS = (argValue('--subjects') ?? 'reconciler,sdk').split(',');
const RECORDS = Number(process.env.BENCH_RECONCILER_RECORDS ?? 3000);
const CONCURRENCY = 8;

const load = (file) => import(pathToFileURL(resolve(dist ?? 'dist', file)).href);
const { Pesakit } = await load('index.js');
const { SqliteReferenceStore } = await load('sqlite.js');

/** The state of the pass, and the idle and wall time spent in each state. */
const state = { inFlight: 0, leases: 0, releases: 0, phase: 'off', responses: 0 };
let buckets = {};
let last = { elu: performance.eventLoopUtilization(), at: performance.now() };
const bucketOf = () => {
  if (state.phase !== 'running') return state.phase;
  if (state.inFlight >= CONCURRENCY) return 'full';
  return state.leases > 0 ? 'short' : 'gap';
};
/** Charges the time since the last change to the state it was in, then applies `change`. */
const mark = (change) => {
  const elu = performance.eventLoopUtilization();
  const at = performance.now();
  const idle = elu.idle - last.elu.idle;
  const wall = at - last.at;
  const name = bucketOf();
  buckets[name] ??= { idle: 0, wall: 0 };
  const bucket = buckets[name];
  bucket.idle += idle;
  bucket.wall += wall;
  last = { elu, at };
  change?.();
};

// Garbage collection on the main thread, by kind (minor: scavenges; major: mark-compact).
const gc = { minor: 0, minorMs: 0, major: 0, majorMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    // NODE_PERFORMANCE_GC_MINOR = 1, MAJOR = 4, INCREMENTAL = 8, WEAKCB = 16.
    const kind = entry.detail?.kind === 1 ? 'minor' : 'major';
    gc[kind] += 1;
    gc[`${kind}Ms`] += entry.duration;
  }
}).observe({ entryTypes: ['gc'] });

const realFetch = globalThis.fetch;
globalThis.fetch = function markedFetch(...args) {
  mark(() => {
    state.inFlight += 1;
    if (state.phase === 'start') state.phase = 'running';
  });
  const promise = realFetch.apply(this, args);
  const settled = () =>
    mark(() => {
      state.inFlight -= 1;
      state.responses += 1;
      // The last response is in: the rest of the pass is its tail.
      if (state.responses >= RECORDS && state.phase === 'running') state.phase = 'tail';
    });
  promise.then(settled, settled);
  return promise;
};

/** The store, its lease and release calls marked and timed. */
function markedStore(store, trips) {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'leaseDue' || property === 'releaseLeases') {
        const counter = property === 'leaseDue' ? 'leases' : 'releases';
        return async (...args) => {
          mark(() => {
            state[counter] += 1;
          });
          const started = performance.now();
          try {
            return await target[property](...args);
          } finally {
            trips[counter].push(performance.now() - started);
            mark(() => {
              state[counter] -= 1;
            });
          }
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const sandbox = await startSandboxProcess(seed);
const file = join(sandbox.directory, 'idle.sqlite');
try {
  const controlNumbers = await seedPendingCollections(file, sandbox.url, RECORDS);
  const store = await SqliteReferenceStore.open(file);
  const trips = { leases: [], releases: [] };
  const reconciler = new Pesakit({
    environment: 'sandbox',
    baseUrl: sandbox.url,
    credentials: { collection: account },
    store: markedStore(store, trips),
  }).createReconciler({ concurrency: CONCURRENCY, ratePerSecond: 1e6 });
  const bare = new Pesakit({
    environment: 'sandbox',
    baseUrl: sandbox.url,
    credentials: { collection: account },
  });
  const subjects = {
    reconciler: async () => {
      const summary = await reconciler.runOnce({ force: true });
      if (summary.checked !== RECORDS || summary.errors !== 0) {
        throw new Error(`reconciler: ${JSON.stringify(summary)}`);
      }
    },
    sdk: async () => {
      let next = 0;
      const worker = async () => {
        while (next < controlNumbers.length) {
          const { data } = await bare.collection.status(controlNumbers[next++]);
          if (data.status !== 'pending') throw new Error(`sdk: ${JSON.stringify(data)}`);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    },
  };
  // Warm-up: one pass of each (the schedule thread starts at the first lease).
  for (const name of SUBJECTS) await subjects[name]();

  // --profile <file>: a CPU profile of the measured passes alone (not the seeding, the warm-up).
  const profileFile = argValue('--profile');
  const session = profileFile ? new Session() : undefined;
  const post = (method, params) =>
    new Promise((done, fail) =>
      session.post(method, params, (error, result) => (error ? fail(error) : done(result))),
    );
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  const results = Object.fromEntries(SUBJECTS.map((name) => [name, []]));
  for (let pass = 0; pass < PASSES; pass++) {
    for (const name of pass % 2 ? [...SUBJECTS].reverse() : SUBJECTS) {
      trips.leases.length = 0;
      trips.releases.length = 0;
      mark();
      buckets = {};
      Object.assign(state, { phase: 'start', responses: 0 });
      Object.assign(gc, { minor: 0, minorMs: 0, major: 0, majorMs: 0 });
      const cpu = process.cpuUsage();
      const started = performance.now();
      const eluBefore = performance.eventLoopUtilization();
      await subjects[name]();
      mark(() => (state.phase = 'off'));
      const elu = performance.eventLoopUtilization(eluBefore);
      const used = process.cpuUsage(cpu);
      // The observer hears of the last collections a tick later.
      await new Promise((resolve) => setImmediate(resolve));
      results[name].push({
        cpuUs: (used.user + used.system) / RECORDS,
        gc: { ...gc },
        wall: performance.now() - started,
        utilisation: elu.utilization,
        buckets,
        leases: [...trips.leases],
        releases: [...trips.releases],
      });
    }
  }
  if (session) {
    const { profile } = await post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    session.disconnect();
  }
  await reconciler.close();
  await store.close();

  const median = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor(sorted.length / 2)] : Number.NaN;
  };
  console.log(
    `reconciler idle: ${RECORDS} pending collections, concurrency ${CONCURRENCY}, ${PASSES} pass(es)` +
      `${dist ? `, build ${dist}` : ''}`,
  );
  console.log('idle ms (share of the pass) by state; wall ms in that state in brackets');
  for (const name of SUBJECTS) {
    for (const run of results[name]) {
      const cells = ['start', 'full', 'short', 'gap', 'tail'].map((bucket) => {
        const b = run.buckets[bucket] ?? { idle: 0, wall: 0 };
        return `${bucket} ${b.idle.toFixed(0)} (${((b.idle / run.wall) * 100).toFixed(1)} %) [${b.wall.toFixed(0)}]`;
      });
      const trip = (values) =>
        values.length
          ? `${values.length} × median ${median(values).toFixed(1)} max ${Math.max(...values).toFixed(1)} ms`
          : '-';
      console.log(
        `${name.padEnd(10)} ${run.wall.toFixed(0)} ms, loop util ${run.utilisation.toFixed(2)}: ${cells.join('  ')}`,
      );
      const { gc: g } = run;
      console.log(
        `           process CPU ${run.cpuUs.toFixed(0)} µs/record; GC: ${g.minor} minor ${g.minorMs.toFixed(0)} ms ` +
          `(${((g.minorMs * 1000) / RECORDS).toFixed(1)} µs/record), ${g.major} major ${g.majorMs.toFixed(0)} ms ` +
          `(${((g.majorMs * 1000) / RECORDS).toFixed(1)} µs/record)`,
      );
      if (name === 'reconciler') {
        console.log(`           leases ${trip(run.leases)}; releases ${trip(run.releases)}`);
      }
    }
  }
} finally {
  await sandbox.close();
  rmSync(sandbox.directory, { recursive: true, force: true });
}
