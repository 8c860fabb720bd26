// The merchant's accounts on the sandbox, one per product, and the seed file that creates them.
// The wallets hold enough for any run: a payment's amount is at most 50,000 TZS.

export const credentials = {
  collection: { email: 'shop@soak.tz', password: 'soak-collect-1' },
  airtime: { email: 'airtime@soak.tz', password: 'soak-airtime-1' },
  disbursement: { email: 'payouts@soak.tz', password: 'soak-payouts-1' },
};

export function sandboxSeed(payments: number): object {
  const balance = Math.min(1_000_000_000, payments * 120_000);
  return {
    accounts: [
      { product: 'collection', ...credentials.collection },
      { product: 'airtime', ...credentials.airtime, status: 'active', balance },
      { product: 'disbursement', ...credentials.disbursement, status: 'active', balance },
    ],
  };
}
