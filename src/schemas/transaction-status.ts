/**
 * `initiating` (stored, being sent), `pending` (accepted, outcome not known), `unknown` (no
 * answer came back: only the reconciler resolves it, never treated as failed), `needs_review`
 * (only `store.resolve()` leaves it), `success` and `failed` (final).
 */
export type TransactionStatus =
  | 'initiating'
  | 'pending'
  | 'unknown'
  | 'needs_review'
  | 'success'
  | 'failed';
