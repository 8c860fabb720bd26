import { type Kysely, sql } from 'kysely';
import type { TransactionStatus } from '../types.js';
import {
  floatShort,
  type ParsedReservation,
  reservationEnd,
  type WalletFloatState,
} from '../wallet-float.js';
import type { Db } from './record-claims.js';
import type { SqlDialectName, StoreDatabase } from './table.js';

const wallets = 'pesakit_wallets';
const reservations = 'pesakit_wallet_reservations';

/** What the account's successes have taken off so far; `lock`: held until the transaction ends. */
export async function walletDebits(db: Db, account: string, lock = false): Promise<number> {
  const row = await db
    .selectFrom(wallets)
    .select('debited_cents')
    .where('account', '=', account)
    .$if(lock, (qb) => qb.forUpdate())
    .executeTakeFirst();
  return Number(row?.debited_cents ?? 0);
}

/**
 * `balance := read - debits recorded since the read began`, and what open payouts of the account
 * hold, in one transaction that holds the wallet row against concurrent debits.
 */
export function writeWalletBalance(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  read: { account: string; cents: number; before: number; readAt: Date | string },
): Promise<WalletFloatState> {
  const { account, readAt } = read;
  return db.transaction().execute(async (trx) => {
    const debited = await walletDebits(trx, account, dialect === 'postgres');
    const cents = read.cents - (debited - read.before);
    await trx
      .insertInto(wallets)
      .values({ account, balance_cents: cents, debited_cents: debited, read_at: readAt })
      .onConflict((oc) =>
        oc.column('account').doUpdateSet({ balance_cents: cents, read_at: readAt }),
      )
      .execute();
    return { balance: cents / 100, reserved: (await reservedCents(trx, account)) / 100 };
  });
}

async function reservedCents(trx: Db, account: string): Promise<number> {
  const row = await trx
    .selectFrom(reservations)
    .select((eb) => eb.fn.sum<number | string | null>('cents').as('cents'))
    .where('account', '=', account)
    .executeTakeFirst();
  return Number(row?.cents ?? 0);
}

/**
 * Holds a payout's float inside the transaction that writes its intent, or refuses it. The wallet
 * row is locked on PostgreSQL so that two processes reserving on one account take turns; SQLite's
 * immediate transactions already do.
 */
export async function reserveFloat(
  trx: Db,
  dialect: SqlDialectName,
  merchantReference: string,
  { account, cents }: ParsedReservation,
): Promise<void> {
  const wallet = await trx
    .selectFrom(wallets)
    .select('balance_cents')
    .where('account', '=', account)
    .$if(dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  const balance = Number(wallet?.balance_cents ?? 0);
  const reserved = await reservedCents(trx, account);
  if (balance - reserved < cents) throw floatShort(balance, reserved, cents);
  await trx
    .insertInto(reservations)
    .values({ merchant_reference: merchantReference, account, cents })
    .execute();
}

/**
 * In the commit that makes a payout final: a success's debit replaces its float (and counts among
 * the account's debits), a failure frees it.
 */
export async function endReservation(
  trx: Db,
  merchantReference: string,
  status: TransactionStatus,
): Promise<void> {
  const end = reservationEnd(status);
  if (end === undefined) return;
  const held = await trx
    .deleteFrom(reservations)
    .where('merchant_reference', '=', merchantReference)
    .returning(['account', 'cents'])
    .executeTakeFirst();
  if (held === undefined || end === 'release') return;
  await trx
    .updateTable(wallets)
    .set({
      balance_cents: sql<number>`${sql.ref('balance_cents')} - ${Number(held.cents)}`,
      debited_cents: sql<number>`${sql.ref('debited_cents')} + ${Number(held.cents)}`,
    })
    .where('account', '=', held.account)
    .execute();
}
