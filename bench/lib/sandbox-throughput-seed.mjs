// The accounts bench/sandbox-throughput.mjs logs in with (shared by the benchmark and the
// sandbox process it starts). The wallet is large enough for every payout of a run.
export const BENCH_SEED = {
  accounts: [
    { product: 'collection', email: 'bench@example.tz', password: 'bench-password' },
    {
      product: 'disbursement',
      email: 'bench@example.tz',
      password: 'bench-password',
      status: 'active',
      balance: 500_000_000_000,
    },
  ],
};
