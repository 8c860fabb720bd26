import { type Kysely, sql } from 'kysely';
import type { TransactionStatus } from '../types.js';
import {
  floatShort,
  type ParsedReservation,
  reservationEnd,
  type WalletFloatState,
} from '../wallet-float.js';
import type { Db, HeldFloat } from './record-claims.js';
import type { SqlDialectName, StoreDatabase } from './table.js';

const wallets = 'pesakit_wallets';

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
    const wallet = await trx
      .insertInto(wallets)
      .values({
        account,
        balance_cents: cents,
        reserved_cents: 0,
        debited_cents: debited,
        read_at: readAt,
      })
      .onConflict((oc) =>
        oc.column('account').doUpdateSet({ balance_cents: cents, read_at: readAt }),
      )
      .returning('reserved_cents')
      .executeTakeFirstOrThrow();
    return { balance: cents / 100, reserved: Number(wallet.reserved_cents) / 100 };
  });
}

/**
 * Holds a payout's float inside the transaction that writes its intent (whose row names the
 * account and cents), or refuses it. One conditional update checks and holds: on PostgreSQL it
 * locks the wallet row and re-checks after any wait, so two processes reserving on one account
 * take turns; SQLite's immediate transactions already do.
 */
export async function reserveFloat(trx: Db, { account, cents }: ParsedReservation): Promise<void> {
  const held = await trx
    .updateTable(wallets)
    .set({ reserved_cents: sql<number>`${sql.ref('reserved_cents')} + ${cents}` })
    .where('account', '=', account)
    .where(sql<boolean>`${sql.ref('balance_cents')} - ${sql.ref('reserved_cents')} >= ${cents}`)
    .executeTakeFirst();
  if (held.numUpdatedRows > 0n) return;
  const wallet = await trx
    .selectFrom(wallets)
    .select(['balance_cents', 'reserved_cents'])
    .where('account', '=', account)
    .executeTakeFirst();
  throw floatShort(Number(wallet?.balance_cents ?? 0), Number(wallet?.reserved_cents ?? 0), cents);
}

/**
 * In the commit that makes a payout final: a success's debit replaces its float (and counts among
 * the account's debits), a failure frees it. Returns the record's columns that drop its hold.
 */
export async function endReservation(
  trx: Db,
  held: HeldFloat | undefined,
  status: TransactionStatus,
): Promise<{ float_account: null; float_cents: null } | undefined> {
  const end = reservationEnd(status);
  if (held === undefined || end === undefined) return undefined;
  const debit = end === 'debit' ? held.cents : 0;
  await trx
    .updateTable(wallets)
    .set({
      reserved_cents: sql<number>`${sql.ref('reserved_cents')} - ${held.cents}`,
      balance_cents: sql<number>`${sql.ref('balance_cents')} - ${debit}`,
      debited_cents: sql<number>`${sql.ref('debited_cents')} + ${debit}`,
    })
    .where('account', '=', held.account)
    .execute();
  return { float_account: null, float_cents: null };
}
