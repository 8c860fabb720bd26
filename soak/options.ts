import { parseArgs } from 'node:util';

export type StoreKind = 'sqlite' | 'postgres';

/** What one soak run is: everything it draws follows from `seed`. */
export interface SoakOptions {
  seed: number;
  payments: number;
  store: StoreKind;
  /** Spread the payments over this many minutes; without it they go as fast as they can. */
  minutes: number | null;
  /** The share of requests and callbacks the sandbox faults. */
  rate: number;
  /** Payments in flight at once. */
  concurrency: number;
  /** Keep the run's directory (store file, cluster, logs) for a look afterwards. */
  keep: boolean;
}

export const usage =
  'usage: npm run soak -- --seed <n> --payments <k> --store sqlite|postgres [--minutes <m>] ' +
  '[--rate <0..1>] [--concurrency <n>] [--keep]';

function whole(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, not ${text}`);
  }
  return value;
}

/** Reads the command line; a mistake throws with the flag named. */
export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      seed: { type: 'string' },
      payments: { type: 'string', default: '300' },
      store: { type: 'string', default: 'sqlite' },
      minutes: { type: 'string' },
      rate: { type: 'string', default: '0.1' },
      concurrency: { type: 'string', default: '8' },
      keep: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.seed === undefined) throw new Error('--seed <n> is required: it names the run');
  if (values.store !== 'sqlite' && values.store !== 'postgres') {
    throw new Error(`--store must be sqlite or postgres, not ${values.store}`);
  }
  const rate = Number(values.rate);
  if (!(rate >= 0 && rate <= 1)) throw new Error(`--rate must be from 0 to 1, not ${values.rate}`);
  const minutes = values.minutes === undefined ? null : Number(values.minutes);
  if (minutes !== null && !(minutes > 0 && minutes <= 24 * 60)) {
    throw new Error(`--minutes must be above 0 and at most a day, not ${values.minutes}`);
  }
  return {
    seed: whole('seed', values.seed, 0, 2 ** 32 - 1),
    payments: whole('payments', values.payments, 30, 100_000),
    store: values.store,
    minutes,
    rate,
    concurrency: whole('concurrency', values.concurrency, 1, 64),
    keep: values.keep,
  };
}
