import type { AirtimeUserStatus } from '../../schemas/airtime.js';
import type { DisbursementUserStatus } from '../../schemas/disbursement.js';
import type { Product } from '../../schemas/product.js';

/** A user of one product. `passwordHash` never leaves this module's callers' views. */
export interface Account {
  readonly id: number;
  readonly product: Product;
  name: string;
  email: string;
  phone: string;
  passwordHash: string;
  status: AirtimeUserStatus | DisbursementUserStatus;
  role_id: 1 | 2 | 3;
  readonly created_at: string;
  updated_at: string;
}

export type NewAccount = Omit<Account, 'id' | 'created_at' | 'updated_at'>;

export class AccountBook {
  readonly #byEmail = new Map<string, Account>();
  /** Every bearer request finds its account by id: a map, not a scan of all accounts. */
  readonly #byId = new Map<string, Account>();
  readonly #nextId = new Map<Product, number>();

  constructor(private readonly now: () => string) {}
  find(product: Product, email: string): Account | undefined {
    return this.#byEmail.get(`${product}|${email.trim().toLowerCase()}`);
  }

  findById(product: Product, id: number): Account | undefined {
    return this.#byId.get(`${product}|${id}`);
  }

  create(fields: NewAccount): Account {
    const id = this.#nextId.get(fields.product) ?? 1;
    this.#nextId.set(fields.product, id + 1);
    const at = this.now();
    const email = fields.email.trim().toLowerCase();
    const account: Account = { ...fields, email, id, created_at: at, updated_at: at };
    this.#byEmail.set(`${fields.product}|${email}`, account);
    this.#byId.set(`${fields.product}|${id}`, account);
    return account;
  }

  touch(account: Account): void {
    account.updated_at = this.now();
  }

  /** Accounts of one product (ids are sequential and accounts are never removed). */
  countOf(product: Product): number {
    return (this.#nextId.get(product) ?? 1) - 1;
  }

  count(): number {
    return this.#byId.size;
  }
}

export function airtimeUserView(account: Account) {
  const { product, passwordHash, updated_at, ...view } = account;
  return { ...view, status: account.status as AirtimeUserStatus };
}

export function disbursementUserView(account: Account) {
  const { product, passwordHash, role_id, updated_at, ...view } = account;
  return { ...view, status: account.status as DisbursementUserStatus };
}

export function collectionUserView(account: Account) {
  return { id: account.id, name: account.name, email: account.email, phone: account.phone };
}

/** Whichever view fits the account's product (the control API answers with it). */
export function accountView(account: Account) {
  const view =
    account.product === 'airtime'
      ? airtimeUserView(account)
      : account.product === 'disbursement'
        ? disbursementUserView(account)
        : collectionUserView(account);
  return { product: account.product, ...view };
}
