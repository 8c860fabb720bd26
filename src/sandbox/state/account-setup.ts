import type { FastifyReply } from 'fastify';
import { hashPassword } from '../auth/passwords.js';
import type { SandboxContext } from '../context.js';
import { atCapacity, sendValidationError } from '../http/replies.js';
import { toCents } from '../money.js';
import type { SeedAccount } from '../options.js';
import type { Account } from './accounts.js';

/** A seed account's fields; an update may leave the password out. */
export type AccountFields = Omit<SeedAccount, 'password'> & { password?: string | undefined };

/** Creates an account (the password is hashed here and nowhere else keeps it). */
export async function createAccount(
  context: SandboxContext,
  fields: AccountFields & { password: string },
  how: 'register' | 'control',
): Promise<Account> {
  const passwordHash = await hashPassword(fields.password);
  // The hash is awaited: another request may have taken the email meanwhile.
  const raced = context.accounts.find(fields.product, fields.email);
  if (raced) return updateAccount(context, raced, fields);
  const account = context.accounts.create({
    product: fields.product,
    email: fields.email,
    name: fields.name ?? fields.email.split('@')[0] ?? fields.email,
    phone: fields.phone ?? '255700000000',
    passwordHash,
    // Self-registered accounts enter the activation flow; control and seed ones are for use at once.
    status:
      fields.status ??
      (how === 'register' && fields.product !== 'collection'
        ? fields.product === 'airtime'
          ? 'pending'
          : 'unverified'
        : 'active'),
    role_id: fields.role_id ?? 2,
  });
  fund(context, account, fields.balance);
  return account;
}

/** Self-registration: a taken email is a 422, a full book a 429; else a new account. */
export async function registerAccount(
  context: SandboxContext,
  fields: AccountFields & { product: 'airtime' | 'disbursement'; password: string },
  reply: FastifyReply,
): Promise<Account | undefined> {
  if (context.accounts.find(fields.product, fields.email)) {
    sendValidationError(reply, { email: ['The email has already been taken.'] });
    return undefined;
  }
  const registered = context.accounts.countOf(fields.product);
  if (atCapacity(context, reply, `${fields.product} accounts`, registered)) return undefined;
  return createAccount(context, fields, 'register');
}

export async function updateAccount(
  context: SandboxContext,
  account: Account,
  fields: AccountFields,
): Promise<Account> {
  if (fields.password !== undefined) account.passwordHash = await hashPassword(fields.password);
  if (fields.name !== undefined) account.name = fields.name;
  if (fields.phone !== undefined) account.phone = fields.phone;
  if (fields.status !== undefined) account.status = fields.status;
  if (fields.role_id !== undefined) account.role_id = fields.role_id;
  context.accounts.touch(account);
  fund(context, account, fields.balance);
  return account;
}

function fund(context: SandboxContext, account: Account, balance: number | undefined): void {
  if (balance === undefined || balance <= 0 || account.product === 'collection') return;
  context.wallets.of(account.product, account.id).credit(toCents(balance), 'credit', 'seed');
}
