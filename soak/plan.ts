// The payments a run makes, each drawn from its own stream of the seed: the same seed and count
// make the same payments with the same merchant references, whatever order they finish in.
import { seeded } from './seeded.js';

export type PaymentKind = 'push' | 'checkout' | 'bank' | 'payout' | 'airtime';
/** What the customer's number does: ends 999 (fails), 998 (never settles), else succeeds. */
export type Outcome = 'succeeds' | 'fails' | 'never_settles';

export interface PlannedPayment {
  n: number;
  kind: PaymentKind;
  outcome: Outcome;
  amount: number;
  msisdn: string;
  merchantReference: string;
  /** Which merchant's callback URL the payment names. */
  merchant: number;
}

const weights: Record<PaymentKind, number> = {
  push: 36,
  checkout: 10,
  bank: 6,
  payout: 28,
  airtime: 20,
};
// Vodacom, Airtel, Tigo/Yas, Halotel, TTCL.
const prefixes = [
  '74',
  '75',
  '76',
  '79',
  '68',
  '69',
  '78',
  '65',
  '67',
  '71',
  '77',
  '61',
  '62',
  '73',
];

export function msisdnFor(draw: ReturnType<typeof seeded>, outcome: Outcome): string {
  const middle = String(draw.between(0, 9999)).padStart(4, '0');
  const end =
    outcome === 'fails'
      ? '999'
      : outcome === 'never_settles'
        ? '998'
        : String(draw.between(100, 989)).padStart(3, '0');
  return `255${draw.pick(prefixes)}${middle}${end}`;
}

export function planPayment(seed: number, n: number): PlannedPayment {
  const draw = seeded(seed, `payment:${n}`);
  const kind = draw.weighted(weights);
  // Money out has no "never settles" number: those succeed.
  const outcome = draw.weighted({ succeeds: 75, fails: 15, never_settles: 10 });
  const moneyOut = kind === 'payout' || kind === 'airtime';
  const settled: Outcome = moneyOut && outcome === 'never_settles' ? 'succeeds' : outcome;
  return {
    n,
    kind,
    outcome: settled,
    amount: draw.between(10, 500) * 100,
    msisdn: msisdnFor(draw, settled),
    merchantReference: `soak-${seed}-${n}-${kind}`,
    merchant: draw.between(0, 1),
  };
}

/** Rows in each of the three bulk files, and the single payments around them. */
export function splitPayments(payments: number): { bulkRows: number; singles: number } {
  const bulkRows = Math.min(100, Math.max(5, Math.round(payments / 60)));
  return { bulkRows, singles: payments - 3 * bulkRows };
}
