import type { RecordAccount } from '../record.js';

/**
 * The bucket an account's requests take from: its environment and login
 * (`sandbox:shop@example.co.tz`), as records keep their account. Every client and process with
 * that login in that environment shares one bucket on a store — the products logged in with one
 * email together — and another merchant's login makes another bucket. Requests sent without a
 * login (a token set with `setToken`) share the environment's `sandbox:` or `production:`.
 */
export function merchantKey(account: RecordAccount): string {
  return `${account.environment}:${account.login ?? ''}`;
}
