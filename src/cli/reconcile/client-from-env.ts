import { Pesakit } from '../../client.js';
import type { Environment, Product } from '../../core/endpoints.js';
import type { Credentials } from '../../core/transport-options.js';
import { isConfigurationError } from '../../errors/index.js';
import { UsageError } from './usage-error.js';

/** Environment variables the CLI reads; credentials come only from here, never argv. */
export const credentialVariables = {
  collection: { email: 'PESAKIT_COLLECTION_EMAIL', password: 'PESAKIT_COLLECTION_PASSWORD' },
  airtime: { email: 'PESAKIT_AIRTIME_EMAIL', password: 'PESAKIT_AIRTIME_PASSWORD' },
  disbursement: {
    email: 'PESAKIT_DISBURSEMENT_EMAIL',
    password: 'PESAKIT_DISBURSEMENT_PASSWORD',
  },
} as const satisfies Record<Product, { email: string; password: string }>;

export const productUrlVariables = {
  collection: 'PESAKIT_COLLECTION_BASE_URL',
  airtime: 'PESAKIT_AIRTIME_BASE_URL',
  disbursement: 'PESAKIT_DISBURSEMENT_BASE_URL',
} as const satisfies Record<Product, string>;

const products = ['collection', 'airtime', 'disbursement'] as const;

export interface CliClientOptions {
  environment: Environment;
  baseUrl?: string;
  baseUrls: Partial<Record<Product, string>>;
  credentials: Partial<Record<Product, Credentials>>;
  apiKey?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/** Each product's credentials from the environment; a product may be absent, half a pair is refused. */
export function clientOptionsFromEnv(
  env: Env,
  flags: { environment: Environment; baseUrl?: string },
): CliClientOptions {
  const credentials: Partial<Record<Product, Credentials>> = {};
  const baseUrls: Partial<Record<Product, string>> = {};
  // Production puts each product on its own host: one with credentials needs its URL.
  const hostless: string[] = [];
  for (const product of products) {
    const url = read(env, productUrlVariables[product]);
    if (url !== undefined) baseUrls[product] = url;
    const names = credentialVariables[product];
    const email = read(env, names.email);
    const password = read(env, names.password);
    if ((email === undefined) !== (password === undefined)) {
      const missing = email === undefined ? names.email : names.password;
      throw new UsageError(
        `${missing} is not set but ${email === undefined ? names.password : names.email} is: ` +
          `set both to reconcile ${product}, or neither to skip it.`,
      );
    }
    if (email === undefined || password === undefined) continue;
    credentials[product] = { email, password };
    if (url === undefined) hostless.push(productUrlVariables[product]);
  }
  if (Object.keys(credentials).length === 0) {
    throw new UsageError(
      'No credentials in the environment: set at least one pair of PESAKIT_COLLECTION_EMAIL/' +
        'PESAKIT_COLLECTION_PASSWORD, PESAKIT_AIRTIME_EMAIL/PESAKIT_AIRTIME_PASSWORD, ' +
        'PESAKIT_DISBURSEMENT_EMAIL/PESAKIT_DISBURSEMENT_PASSWORD.',
    );
  }
  const baseUrl = flags.baseUrl ?? read(env, 'PESAKIT_BASE_URL');
  if (
    flags.environment === 'sandbox' &&
    baseUrl === undefined &&
    Object.keys(baseUrls).length === 0
  ) {
    throw new UsageError(
      'The sandbox needs an address: pass --base-url http://127.0.0.1:4010 or set PESAKIT_BASE_URL.',
    );
  }
  if (flags.environment === 'production' && hostless.length > 0) {
    throw new UsageError(
      `Production puts each product on its own host: set ${hostless.join(', ')}.`,
    );
  }
  const apiKey = read(env, 'PESAKIT_API_KEY');
  return {
    environment: flags.environment,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    baseUrls,
    credentials,
    ...(apiKey !== undefined ? { apiKey } : {}),
  };
}

/** The client options, tried before any store opens: a bad URL is a usage error (exit 2). */
export function checkedClientOptions(
  env: Env,
  flags: { environment: Environment; baseUrl?: string },
): CliClientOptions {
  const options = clientOptionsFromEnv(env, flags);
  try {
    new Pesakit(options);
  } catch (error) {
    if (isConfigurationError(error) || error instanceof TypeError) {
      throw new UsageError(error.message);
    }
    throw error;
  }
  return options;
}
