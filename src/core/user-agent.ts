/** This package's version, kept equal to package.json's by a test: the bundle cannot read it. */
export const PESAKIT_VERSION = '0.1.0';

/** The default `user-agent`: Node's fetch sends `node`, which tells the platform nothing. */
export const USER_AGENT = `pesakit/${PESAKIT_VERSION} node/${process.versions.node}`;
