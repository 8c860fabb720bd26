import type { Credentials, Transport } from '../core/transport.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ReferenceStore } from '../references/index.js';
import type { RecordAccount } from '../references/record.js';
import type { Product } from '../schemas/product.js';

/** What every resource needs from the client: the wire, the memory, and a reference maker. */
export interface ClientContext {
  readonly transport: Transport;
  /** For reads; every record moves through `ledger`. */
  readonly store: ReferenceStore;
  readonly ledger: Ledger;
  readonly newMerchantReference: () => string;
  /**
   * The client's account of each product: stored with every record, and a status call pulls
   * only records of that account.
   */
  readonly account: (product: Product) => RecordAccount;
  /** The configured credentials, for explicit `login()` calls. */
  readonly credentials: Readonly<Partial<Record<Product, Credentials>>>;
}
