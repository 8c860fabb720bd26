import type { WalletsPart } from './checked-parts.js';
import type { TransactionRecord } from './record.js';
import {
  floatShort,
  type ParsedReservation,
  reservationEnd,
  type WalletFloatState,
} from './wallet-float.js';

/** The memory store's float per account, as `pesakit_wallets` keeps it: free = `cents - (held - settled)`. */
export class MemoryWallets implements WalletsPart {
  readonly #wallets = new Map<string, { cents: number; held: number; settled: number }>();
  /** Merchant reference → the hold of a payout not yet final. */
  readonly #reservations = new Map<string, { account: string; cents: number }>();
  async recordBalance(
    account: string,
    readCents: () => Promise<number>,
  ): Promise<WalletFloatState> {
    // What payouts have taken that a balance read from now on shows: read before the balance.
    let open = 0;
    for (const hold of this.#reservations.values()) {
      if (hold.account === account) open += hold.cents;
    }
    const settled = (this.#wallets.get(account)?.held ?? 0) - open;
    const cents = await readCents();
    const held = this.#wallets.get(account)?.held ?? 0;
    this.#wallets.set(account, { cents, held, settled });
    return { balance: cents / 100, reserved: (held - settled) / 100 };
  }
  /** Holds the float for a payout's intent, or refuses it (`BulkInsufficientFundsError`). */
  reserve(merchantReference: string, reservation: ParsedReservation): void {
    const wallet = this.#wallets.get(reservation.account);
    const [balance, reserved] = [wallet?.cents ?? 0, wallet ? wallet.held - wallet.settled : 0];
    if (wallet === undefined || balance - reserved < reservation.cents) {
      throw floatShort(balance, reserved, reservation.cents);
    }
    wallet.held += reservation.cents;
    this.#reservations.set(merchantReference, reservation);
  }
  /** A failure gives the float back; a success's debit keeps its place until the next read. */
  end(record: TransactionRecord): void {
    const held = this.#reservations.get(record.merchantReference);
    const end = reservationEnd(record.status);
    if (held === undefined || end === undefined) return;
    this.#reservations.delete(record.merchantReference);
    const wallet = this.#wallets.get(held.account);
    if (wallet !== undefined && end === 'release') wallet.held -= held.cents;
  }
}
