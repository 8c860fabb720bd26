import { type Kysely, sql } from 'kysely';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import { isFinalStatus, transactionStatuses } from '../transitions.js';
import {
  floatShort,
  type ParsedReservation,
  reservationEnd,
  type WalletFloatState,
} from '../wallet-float.js';
import type { Db, HeldFloat } from './record-claims.js';
import { type SqlDialectName, type StoreDatabase, transactionsTable } from './table.js';

const wallets = 'pesakit_wallets';
/** The statuses whose record still holds its float: all but the final ones. */
const holding = transactionStatuses.filter((status) => !isFinalStatus(status));

/**
 * Before a balance read: what the account's payouts have taken that the read will show, i.e. the
 * wallet's running `held_cents` less what open payouts hold now. A payout that becomes final
 * during the read is still open here, so its debit counts against the new balance until the next
 * read. Read in one transaction, the wallet row locked on PostgreSQL, so no hold or release falls
 * between the two reads.
 */
export function walletSettled(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  account: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const wallet = await trx
      .selectFrom(wallets)
      .select('held_cents')
      .where('account', '=', account)
      .$if(dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    const open = await trx
      .selectFrom(transactionsTable)
      .select((eb) => eb.fn.sum<number | string | null>('float_cents').as('cents'))
      .where('status', 'in', holding)
      .where('float_account', '=', account)
      .executeTakeFirstOrThrow();
    return Number(wallet?.held_cents ?? 0) - Number(open.cents ?? 0);
  });
}

/**
 * Keeps a balance read with what its payouts had settled before the read began (see
 * `walletSettled`). The running hold is never overwritten, so two processes reading at once each
 * leave a pair that is right on its own.
 */
export async function writeWalletBalance(
  db: Kysely<StoreDatabase>,
  read: { account: string; cents: number; settled: number; readAt: Date | string },
): Promise<WalletFloatState> {
  const { account, cents, settled, readAt } = read;
  const wallet = await db
    .insertInto(wallets)
    .values({
      account,
      balance_cents: cents,
      held_cents: 0,
      settled_cents: settled,
      read_at: readAt,
    })
    .onConflict((oc) =>
      oc
        .column('account')
        .doUpdateSet({ balance_cents: cents, settled_cents: settled, read_at: readAt }),
    )
    .returning(['held_cents', 'settled_cents'])
    .executeTakeFirstOrThrow();
  const reserved = Number(wallet.held_cents) - Number(wallet.settled_cents);
  return { balance: cents / 100, reserved: reserved / 100 };
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
    .set({ held_cents: sql<number>`${sql.ref('held_cents')} + ${cents}` })
    .where('account', '=', account)
    .where(
      sql<boolean>`${sql.ref('balance_cents')} - ${sql.ref('held_cents')} + ${sql.ref('settled_cents')} >= ${cents}`,
    )
    .executeTakeFirst();
  if (held.numUpdatedRows > 0n) return;
  const wallet = await trx
    .selectFrom(wallets)
    .select(['balance_cents', 'held_cents', 'settled_cents'])
    .where('account', '=', account)
    .executeTakeFirst();
  const reserved = Number(wallet?.held_cents ?? 0) - Number(wallet?.settled_cents ?? 0);
  throw floatShort(Number(wallet?.balance_cents ?? 0), reserved, cents);
}

/**
 * In the commit that makes a payout final, the record drops its hold. A failure gives the float
 * back to the wallet; a success's debit keeps its place in `held_cents` (the free float is the
 * same either way) until a balance read shows it, so a success writes nothing more.
 */
export async function endReservation(
  trx: Db,
  held: HeldFloat | undefined,
  status: TransactionStatus,
): Promise<{ float_account: null; float_cents: null } | undefined> {
  const end = reservationEnd(status);
  if (held === undefined || end === undefined) return undefined;
  if (end === 'release') {
    await trx
      .updateTable(wallets)
      .set({ held_cents: sql<number>`${sql.ref('held_cents')} - ${held.cents}` })
      .where('account', '=', held.account)
      .execute();
  }
  return { float_account: null, float_cents: null };
}
