/** The platform's three products: each has its own accounts, hosts, paths and records. */
export type Product = 'collection' | 'airtime' | 'disbursement';
