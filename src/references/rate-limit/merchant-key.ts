import type { Product } from '../../schemas/product.js';
import type { RecordAccount } from '../record.js';

const products: readonly Product[] = ['collection', 'airtime', 'disbursement'];

/**
 * The bucket a client's requests take from: its environment and the logins of its products
 * (`sandbox:shop@example.co.tz`). Every client built with the same environment and credentials
 * shares one bucket on a store; another merchant's logins make another bucket. A client with no
 * account (no credentials, no environment given) takes from `default`.
 */
export function merchantKey(account: ((product: Product) => RecordAccount) | undefined): string {
  if (account === undefined) return 'default';
  const accounts = products.map(account);
  const logins = [...new Set(accounts.flatMap(({ login }) => (login === null ? [] : [login])))];
  return `${accounts[0]?.environment ?? 'sandbox'}:${logins.sort().join(',')}`;
}
