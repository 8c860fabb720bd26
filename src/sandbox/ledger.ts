import type { Product } from '../schemas/product.js';
import { type Cents, MAX_WALLET_BALANCE_CENTS, toShillings } from './money.js';

/** One movement of a wallet. Debits are negative. The entries of a wallet sum to its balance. */
export interface LedgerEntry {
  readonly id: number;
  readonly kind: 'credit' | 'recharge' | 'airtime' | 'payout' | 'charge';
  readonly amount: Cents;
  readonly reference: string;
  readonly balanceAfter: Cents;
  readonly at: string;
}

/** Money held with the balance check while an upstream call runs; then captured or released. */
export interface Hold {
  readonly amount: Cents;
  /** Debits the held amount as the given entries (their amounts must sum to the hold). */
  capture(
    entries: readonly { kind: LedgerEntry['kind']; amount: Cents; reference: string }[],
  ): void;
  release(): void;
}

/** A merchant wallet with its balance-transaction ledger (spec: "kept with the wallet"). */
export class Wallet {
  #balance: Cents = 0;
  #held: Cents = 0;
  readonly #entries: LedgerEntry[] = [];

  constructor(
    private readonly now: () => string,
    private readonly nextEntryId: () => number,
  ) {}

  get balance(): Cents {
    return this.#balance;
  }

  /** What new payments may still use: the balance less what in-flight payments hold. */
  get available(): Cents {
    return this.#balance - this.#held;
  }

  get entries(): readonly LedgerEntry[] {
    return this.#entries;
  }

  /** The wallet as the API shows it: the balance in shillings. */
  view() {
    return { balance: toShillings(this.#balance), currency: 'TZS' as const };
  }

  /** True when `amount` cents can be credited without passing the wallet maximum. */
  canCredit(amount: Cents): boolean {
    return (
      Number.isSafeInteger(amount) &&
      amount > 0 &&
      this.#balance + amount <= MAX_WALLET_BALANCE_CENTS
    );
  }

  /** Credits whole cents; callers check {@link canCredit} first and refuse what it refuses. */
  credit(amount: Cents, kind: 'credit' | 'recharge', reference: string): void {
    if (!this.canCredit(amount)) {
      throw new RangeError(`a credit of ${amount} cents is not allowed on this wallet`);
    }
    this.#post(kind, amount, reference);
  }

  /** Reserves `amount` if the available balance covers it; `undefined` when it does not. */
  reserve(amount: Cents): Hold | undefined {
    if (!Number.isInteger(amount) || amount <= 0 || amount > this.available) return undefined;
    this.#held += amount;
    let open = true;
    const close = () => {
      if (!open) throw new Error('hold already settled');
      open = false;
      this.#held -= amount;
    };
    return {
      amount,
      capture: (entries) => {
        const total = entries.reduce((sum, entry) => sum + entry.amount, 0);
        if (total !== amount)
          throw new RangeError(`capture of ${total} does not match hold ${amount}`);
        close();
        for (const entry of entries) this.#post(entry.kind, -entry.amount, entry.reference);
      },
      release: close,
    };
  }

  #post(kind: LedgerEntry['kind'], amount: Cents, reference: string): void {
    this.#balance += amount;
    this.#entries.push({
      id: this.nextEntryId(),
      kind,
      amount,
      reference,
      balanceAfter: this.#balance,
      at: this.now(),
    });
  }
}

export class WalletBook {
  readonly #wallets = new Map<string, Wallet>();
  #nextEntryId = 1;

  constructor(private readonly now: () => string) {}
  of(product: Product, accountId: number): Wallet {
    const key = `${product}:${accountId}`;
    let wallet = this.#wallets.get(key);
    if (!wallet) {
      wallet = new Wallet(this.now, () => this.#nextEntryId++);
      this.#wallets.set(key, wallet);
    }
    return wallet;
  }

  all(): ReadonlyMap<string, Wallet> {
    return this.#wallets;
  }
}
