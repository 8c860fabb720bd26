import { guardFor, PesakitError } from '../errors/pesakit-error.js';
import type { NotVisibleWarning } from '../references/account.js';
import type { RecordAccount } from '../references/record.js';

/**
 * A status call named a record made with another account or in another environment than this
 * client's: the platform shows a transaction only to its own account, so nothing was pulled and
 * the record is left as it is. Check it with the credentials and environment it was made with.
 */
export class RecordNotVisibleError extends PesakitError {
  override name = 'RecordNotVisibleError' as string;
  override readonly code = 'not_visible' as const;
  readonly merchantReference: string;
  /** The account the record was created with. */
  readonly recordAccount: RecordAccount;
  /** The account this client uses for the record's product. */
  readonly clientAccount: RecordAccount;

  constructor(warning: NotVisibleWarning) {
    super(warning.message);
    this.merchantReference = warning.merchantReference;
    this.recordAccount = warning.recordAccount;
    this.clientAccount = warning.clientAccount;
  }
}

export const isRecordNotVisibleError = guardFor(RecordNotVisibleError, 'RecordNotVisibleError');
