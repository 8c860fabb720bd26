import { networkInterfaces } from 'node:os';
import { isLoopbackName } from '../internal/host-guard.js';

/** Where a dashboard listening on `host` can be reached from, and whether that is the network. */
export interface Exposure {
  /** Listening beyond loopback: others on the network reach the page. */
  exposed: boolean;
  /** The host names of the addresses it is reachable at, the network's first, as URLs write them. */
  hostnames: string[];
}

const wildcards = new Set(['0.0.0.0', '::', '']);

/**
 * The addresses behind `host`: itself, or for a wildcard every address of this machine's
 * interfaces. They are IP literals, which a DNS-rebinding page cannot send as its Host, so the
 * page answers them as well as loopback names.
 */
export function exposureOf(host: string): Exposure {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (!wildcards.has(bare)) {
    const name = bare.includes(':') ? `[${bare}]` : bare;
    return { exposed: !isLoopbackName(name), hostnames: [name] };
  }
  const network: string[] = [];
  const loopback: string[] = [];
  for (const addresses of Object.values(networkInterfaces())) {
    for (const { address, family, internal, scopeid } of addresses ?? []) {
      // `0.0.0.0` takes IPv4 only; a link-local IPv6 address needs a zone no URL can carry.
      if (family === 'IPv6' && (bare === '0.0.0.0' || scopeid)) continue;
      const name = family === 'IPv6' ? `[${address}]` : address;
      (internal ? loopback : network).push(name);
    }
  }
  return { exposed: true, hostnames: [...network, ...loopback] };
}
