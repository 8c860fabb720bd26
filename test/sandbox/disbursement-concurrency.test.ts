import { afterEach, describe, expect, it } from 'vitest';
import { bearer, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
afterEach(() => s.close());

describe('disbursement: wallet deducted in a transaction-safe way', () => {
  it('50 simultaneous payments never overdraw; exactly the affordable number succeed; the ledger sums to the balance', async () => {
    s = await startSandbox();
    // Each payout costs 1 000 + 100 charge; 20 000 affords 18 of them (19 800), not 19.
    const token = await s.account('disbursement', 'rush@duka.tz', 20_000);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        s.call(
          'POST',
          '/api/sandbox/disbursement/payment',
          { msisdn: '255754123456', amount: 1000, name: `Recipient ${i}` },
          bearer(token),
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(18);
    expect(statuses.filter((status) => status === 422)).toHaveLength(32);
    const wallet = s.sandbox.inspect.wallet('disbursement', 'rush@duka.tz')!;
    expect(wallet.balance).toBe(200);
    const ledgerCents = wallet.ledger.reduce((sum, entry) => sum + entry.amount, 0);
    expect(ledgerCents / 100).toBe(wallet.balance);
    expect(wallet.ledger.every((entry) => entry.balanceAfter >= 0)).toBe(true);
  });
});
