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

/** `balance := read`, and what open payouts of the account hold, in one transaction. */
export function writeWalletBalance(
  db: Kysely<StoreDatabase>,
  account: string,
  cents: number,
  readAt: Date | string,
): Promise<WalletFloatState> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto(wallets)
      .values({ account, balance_cents: cents, read_at: readAt })
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

/** In the commit that makes a payout final: a success's debit replaces its float, a failure frees it. */
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
    .set({ balance_cents: sql<number>`${sql.ref('balance_cents')} - ${Number(held.cents)}` })
    .where('account', '=', held.account)
    .execute();
}
