/**
 * The version of this package, kept equal to package.json's by a test
 * (test/unit/transport/wire.test.ts): the bundle has no package.json to read at run time.
 */
export const PESAKIT_VERSION = '0.1.0';

/**
 * The `user-agent` pesakit sends unless the merchant configures one (`headers`). Node's fetch
 * sends `node`, which tells the platform nothing; naming the SDK and the runtime lets the
 * platform's support tell whose calls they are (stripe-node sends `Stripe/v1 NodeBindings/…`).
 */
export const USER_AGENT = `pesakit/${PESAKIT_VERSION} node/${process.versions.node}`;
