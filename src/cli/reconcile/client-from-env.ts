import { Pesakit } from '../../client.js';
import type { Environment } from '../../core/endpoints.js';
import type { Credentials } from '../../core/transport-options.js';
import { isConfigurationError } from '../../errors/index.js';
import type { Product } from '../../schemas/product.js';
import { UsageError } from './usage-error.js';

const products = ['collection', 'airtime', 'disbursement'] as const;

/** The environment variables the CLI reads; credentials come only from here, never argv. */
const variable = (product: Product, name: 'EMAIL' | 'PASSWORD' | 'BASE_URL') =>
  `PESAKIT_${product.toUpperCase()}_${name}`;

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
    const url = read(env, variable(product, 'BASE_URL'));
    if (url !== undefined) baseUrls[product] = url;
    const email = read(env, variable(product, 'EMAIL'));
    const password = read(env, variable(product, 'PASSWORD'));
    if ((email === undefined) !== (password === undefined)) {
      const [missing, set] =
        email === undefined ? (['EMAIL', 'PASSWORD'] as const) : (['PASSWORD', 'EMAIL'] as const);
      throw new UsageError(
        `${variable(product, missing)} is not set but ${variable(product, set)} is: ` +
          `set both to reconcile ${product}, or neither to skip it.`,
      );
    }
    if (email === undefined || password === undefined) continue;
    credentials[product] = { email, password };
    if (url === undefined) hostless.push(variable(product, 'BASE_URL'));
  }
  if (Object.keys(credentials).length === 0) {
    const pairs = products.map(
      (product) => `${variable(product, 'EMAIL')}/${variable(product, 'PASSWORD')}`,
    );
    throw new UsageError(
      `No credentials in the environment: set at least one pair of ${pairs.join(', ')}.`,
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
