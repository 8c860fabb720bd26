import type { Product } from '../../core/endpoints.js';
import type { AirtimeUserStatus } from '../../schemas/airtime.js';
import type { DisbursementUserStatus } from '../../schemas/disbursement.js';

/** A user of one product. `passwordHash` never leaves this module's callers' views. */
export interface Account {
  readonly id: number;
  readonly product: Product;
  name: string;
  email: string;
  phone: string;
  passwordHash: string;
  /** Airtime: pending/active/inactive; disbursement: unverified/active/rejected; collection: active. */
  status: AirtimeUserStatus | DisbursementUserStatus;
  /** Airtime only: 1 admin, 2 user, 3 finance. */
  role_id: 1 | 2 | 3;
  readonly created_at: string;
  updated_at: string;
}

export type NewAccount = Omit<Account, 'id' | 'created_at' | 'updated_at'>;

/**
 * The accounts of all three products. Each product has its own id sequence and its own email
 * namespace, as the production backends do: one email may hold an airtime and a disbursement
 * account with different passwords.
 */
export class AccountBook {
  readonly #byProduct = new Map<Product, Map<string, Account>>();
  /** Every bearer request finds its account by id: a map, not a scan of all accounts. */
  readonly #byId = new Map<Product, Map<number, Account>>();
  readonly #nextId = new Map<Product, number>();

  constructor(private readonly now: () => string) {}

  #emails(product: Product): Map<string, Account> {
    let emails = this.#byProduct.get(product);
    if (!emails) {
      emails = new Map();
      this.#byProduct.set(product, emails);
    }
    return emails;
  }

  find(product: Product, email: string): Account | undefined {
    return this.#emails(product).get(email.trim().toLowerCase());
  }

  findById(product: Product, id: number): Account | undefined {
    return this.#byId.get(product)?.get(id);
  }

  create(fields: NewAccount): Account {
    const id = this.#nextId.get(fields.product) ?? 1;
    this.#nextId.set(fields.product, id + 1);
    const at = this.now();
    const account: Account = {
      ...fields,
      email: fields.email.trim().toLowerCase(),
      id,
      created_at: at,
      updated_at: at,
    };
    this.#emails(fields.product).set(account.email, account);
    let ids = this.#byId.get(fields.product);
    if (!ids) {
      ids = new Map();
      this.#byId.set(fields.product, ids);
    }
    ids.set(id, account);
    return account;
  }

  touch(account: Account): void {
    account.updated_at = this.now();
  }

  /** Accounts of one product. */
  countOf(product: Product): number {
    return this.#byProduct.get(product)?.size ?? 0;
  }

  count(): number {
    let total = 0;
    for (const emails of this.#byProduct.values()) total += emails.size;
    return total;
  }

  all(): Account[] {
    return [...this.#byProduct.values()].flatMap((emails) => [...emails.values()]);
  }

  clear(): void {
    this.#byProduct.clear();
    this.#byId.clear();
    this.#nextId.clear();
  }
}

/** The airtime user as responses show it: no password, no hash. */
export function airtimeUserView(account: Account) {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    phone: account.phone,
    role_id: account.role_id,
    status: account.status as AirtimeUserStatus,
    created_at: account.created_at,
  };
}

/** The disbursement user as responses show it: no password, no hash. */
export function disbursementUserView(account: Account) {
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    phone: account.phone,
    status: account.status as DisbursementUserStatus,
    created_at: account.created_at,
  };
}

/** The collection user as responses show it. */
export function collectionUserView(account: Account) {
  return { id: account.id, name: account.name, email: account.email, phone: account.phone };
}

/** Whichever view fits the account's product (the control API answers with it). */
export function accountView(account: Account) {
  if (account.product === 'airtime')
    return { product: account.product, ...airtimeUserView(account) };
  if (account.product === 'disbursement') {
    return { product: account.product, ...disbursementUserView(account) };
  }
  return { product: account.product, ...collectionUserView(account) };
}
