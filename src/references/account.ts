import type { Environment } from '../core/endpoints.js';
import type { Credentials } from '../core/transport-options.js';
import type { Product } from '../schemas/product.js';
import type { RecordAccount, TransactionRecord } from './record.js';

/** The account a client with `credentials` uses for one product in `environment`. */
export function accountOf(
  environment: Environment,
  credentials: Credentials | undefined,
): RecordAccount {
  return { environment, login: credentials ? credentials.email.trim().toLowerCase() : null };
}

/**
 * True when `client` may pull `record`: the same environment, and the same login where both
 * are known. A record written before records knew their account (`account: null`) is the
 * client's.
 */
export function isVisibleTo(record: TransactionRecord, client: RecordAccount): boolean {
  const { account } = record;
  if (account === null) return true;
  if (account.environment !== client.environment) return false;
  return account.login === null || client.login === null || account.login === client.login;
}

/** A record of another account or environment, left open and untouched (not pulled). */
export interface NotVisibleWarning {
  readonly code: 'not_visible';
  readonly merchantReference: string;
  readonly product: Product;
  /** The account the record was created with. */
  readonly recordAccount: RecordAccount;
  /** The account this client uses for the record's product. */
  readonly clientAccount: RecordAccount;
  readonly message: string;
}

/** The warning for a record `client` cannot see; `undefined` when it can. */
export function notVisibleWarning(
  record: TransactionRecord,
  client: RecordAccount,
): NotVisibleWarning | undefined {
  if (record.account === null || isVisibleTo(record, client)) return undefined;
  const { merchantReference, product } = record;
  return {
    code: 'not_visible',
    merchantReference,
    product,
    recordAccount: record.account,
    clientAccount: client,
    message:
      `${merchantReference} was made with the ${product} account ${describeAccount(record.account)}, ` +
      `and this client uses ${describeAccount(client)}: the platform shows a transaction only to ` +
      'its own account, so it was not pulled and is left open. Reconcile it with the credentials ' +
      'and environment it was made with.',
  };
}

function describeAccount(account: RecordAccount): string {
  return `${account.login ?? '(no login)'} (${account.environment})`;
}
