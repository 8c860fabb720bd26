import { z } from 'zod';
import { BulkInsufficientFundsError } from '../errors/bulk-insufficient-funds-error.js';
import { centsToAmount } from '../schemas/amount.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';
import { parse, withoutNul } from './input-rules/common.js';

/**
 * Float held for one payout, from the write of its intent until its record is final, so that
 * batches in several processes on one store never commit more than the wallet holds.
 */
export interface WalletReservation {
  /** The disbursement account the payout leaves from (the login it is sent with). */
  account: string;
  /** TZS held: the amount plus the charge. */
  amount: number;
}

/**
 * A wallet as the store sees it: the last balance read, and the float payouts hold of it or have
 * paid out since that read (a success's debit the read may not show). Free: `balance - reserved`.
 */
export interface WalletFloatState {
  balance: number;
  reserved: number;
}

export interface WalletFloat {
  /**
   * Keeps the balance `readBalance` reads from the platform as the account's wallet and returns
   * it with what is reserved against it: open payouts' holds, and the debits of payouts that
   * became final while it was read. An intent with a `reservation` is refused
   * (`BulkInsufficientFundsError`, nothing stored) when `balance - reserved` does not cover it;
   * the reservation ends in the commit that makes its record final: `failed` releases it,
   * `success` keeps it as the debit until the next read; `pending`, `unknown` and `needs_review`
   * keep it.
   */
  recordBalance(account: string, readBalance: () => Promise<number>): Promise<WalletFloatState>;
}

const accountSchema = withoutNul(
  z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(256, { error: 'must be at most 256 characters' }),
);
const centsSchema = z
  .number({ error: 'must be a number' })
  .refine(Number.isFinite, { error: 'must be a finite number' })
  .transform((value) => Math.round(value * 100));

export const reservationSchema = z
  .object({
    account: accountSchema,
    amount: centsSchema.refine((cents) => cents > 0, { error: 'must be greater than 0' }),
  })
  .transform(({ account, amount }) => ({ account, cents: amount }));

/** A reservation in whole cents, checked. */
export type ParsedReservation = z.output<typeof reservationSchema>;

const balanceSchema = z.object({
  account: accountSchema,
  balance: centsSchema.refine((cents) => cents >= 0, { error: 'must not be negative' }),
});

export function parseWalletBalance(account: string, balance: number) {
  return parse('wallets.recordBalance', 'wallet', balanceSchema, { account, balance });
}

/** The refusal of an intent whose reservation the free float does not cover. */
export function floatShort(balanceCents: number, reservedCents: number, neededCents: number) {
  const free = centsToAmount(Math.max(0, balanceCents - reservedCents));
  return new BulkInsufficientFundsError(free, centsToAmount(neededCents), 'the payout needs');
}

/** How a status ends a reservation: the debit takes its place, a refusal releases it. */
export function reservationEnd(status: TransactionStatus): 'debit' | 'release' | undefined {
  return status === 'success' ? 'debit' : status === 'failed' ? 'release' : undefined;
}
