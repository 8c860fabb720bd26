/** DNS-rebinding defence: a local server answers only loopback and listed Host/Origin names. */
export interface HostGuard {
  /** Why a request with these headers is refused, or `undefined` when it may go on. */
  refusal(host: string | undefined, origin: string | undefined): string | undefined;
}

/** Allows loopback and `allowedHosts`; `howToAllow` names the option that lists another host. */
export function createHostGuard(allowedHosts: readonly string[], howToAllow: string): HostGuard {
  const allowed = new Set(allowedHosts.map((name) => hostnameOf(name)));
  const permitted = (hostname: string | undefined) =>
    hostname !== undefined && (isLoopbackName(hostname) || allowed.has(hostname));
  return {
    refusal(host, origin) {
      if (!permitted(host === undefined ? undefined : hostnameOf(host))) {
        return `This server answers loopback host names only, not Host ${quote(host)}; ${howToAllow}.`;
      }
      if (origin !== undefined && !permitted(originHostname(origin))) {
        return `This server answers pages from loopback host names only, not Origin ${quote(origin)}; ${howToAllow}.`;
      }
      return undefined;
    },
  };
}

/** `localhost`, any `127.x.x.x` (however the address is written) or `[::1]`. */
export function isLoopbackName(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** The host name a Host header (or an allowed-host entry) names, normalised; no port. */
export function hostnameOf(host: string): string | undefined {
  try {
    const url = new URL(`http://${host.trim()}`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '') {
      return undefined;
    }
    return url.hostname;
  } catch {
    return undefined;
  }
}

function originHostname(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : undefined;
  } catch {
    return undefined;
  }
}

function quote(value: string | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value.slice(0, 200));
}
