import { ConfigurationError } from '../errors/configuration-error.js';
import type { Product } from './endpoints.js';
import type { TransportOptions } from './transport-options.js';

/**
 * The checks `new Pesakit()` makes on top of the transport's, so that a client that cannot
 * work fails when it is built, naming the option — not on its first payment, and never by
 * leaving a record behind. A `Transport` built by hand stays lenient (its calls fail instead).
 */
export function checkClientConfiguration(options: TransportOptions): void {
  const environment = options.environment ?? 'sandbox';
  const credentials = Object.entries(options.credentials ?? {}) as [Product, unknown][];
  for (const [product, given] of credentials) checkCredentials(product, given);
  if (options.apiKey !== undefined) checkText('apiKey', options.apiKey);

  const baseUrls = options.baseUrls ?? {};
  const hasHost = (product: Product) =>
    baseUrls[product] !== undefined || (environment === 'sandbox' && options.baseUrl !== undefined);
  if (!(['collection', 'airtime', 'disbursement'] as const).some(hasHost)) {
    throw environment === 'production'
      ? new ConfigurationError(
          'baseUrls',
          "environment 'production' needs `baseUrls`: each product has its own host there " +
            "(e.g. { collection: 'https://…' }); `baseUrl` is for the sandbox only.",
        )
      : new ConfigurationError(
          'baseUrl',
          "`baseUrl` is required: the sandbox's origin, e.g. 'http://127.0.0.1:4010' " +
            '(or `baseUrls` for each product).',
        );
  }
  for (const [product] of credentials) {
    if (hasHost(product)) continue;
    throw new ConfigurationError(
      `baseUrls.${product}`,
      `\`credentials.${product}\` is set, but there is no host for the ${product} product: set ` +
        (environment === 'production'
          ? `\`baseUrls.${product}\` (in production each product has its own host).`
          : `\`baseUrl\` or \`baseUrls.${product}\`.`),
    );
  }
}

function checkCredentials(product: Product, given: unknown): void {
  if (given === undefined) return;
  if (typeof given !== 'object' || given === null) {
    throw new ConfigurationError(
      `credentials.${product}`,
      `\`credentials.${product}\` must be { email, password }.`,
    );
  }
  const { email, password } = given as { email?: unknown; password?: unknown };
  checkText(`credentials.${product}.email`, email);
  checkText(`credentials.${product}.password`, password);
}

// The value is never echoed: it may be a password.
function checkText(option: string, value: unknown): void {
  if (typeof value === 'string' && value.trim() !== '') return;
  const got = typeof value === 'string' ? 'a blank string' : typeof value;
  throw new ConfigurationError(option, `\`${option}\` must be a non-empty string, got ${got}.`);
}
