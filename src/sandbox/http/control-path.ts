/** Where the control API lives. */
export const CONTROL_PREFIX = '/api/sandbox/_control';

/**
 * The header every merchant-callback delivery carries. The control API refuses any request
 * that has it: the sandbox's own deliveries come from loopback, and must never be mistaken for
 * a trusted loopback caller (an SSRF through `callback_url`).
 */
export const DELIVERY_MARK_HEADER = 'x-pesakit-sandbox-delivery';

/**
 * True when a URL's path is under the control API, however it is spelled: percent-encoded,
 * doubled slashes, dot segments, any case. The host is deliberately not checked: the sandbox
 * cannot know every name it is reachable by (127.0.0.2, [::1], localhost, a LAN address, a DNS
 * name), and no merchant's callback lives under `/api/sandbox/_control`.
 */
export function isControlUrl(value: string): boolean {
  let path: string;
  try {
    path = new URL(value).pathname;
  } catch {
    return false;
  }
  const normalised = decodedPath(path)
    .replace(/\/{2,}/g, '/')
    .toLowerCase();
  return normalised.startsWith(CONTROL_PREFIX.toLowerCase());
}

/**
 * A URL path as a server reads it: percent-decoding repeated (a double-encoded `%255F` too) and
 * the dot segments decoding reveals resolved again. What is not valid encoding stays as it is.
 */
export function decodedPath(path: string): string {
  for (let round = 0; round < 3; round += 1) {
    try {
      const decoded = decodeURIComponent(path);
      if (decoded === path) break;
      // Prefixed with the origin, so that a decoded `//name` stays a path and never a host.
      path = new URL(`http://x${decoded.startsWith('/') ? '' : '/'}${decoded}`).pathname;
    } catch {
      break;
    }
  }
  return path;
}

/** The message for a refused callback URL, on initiation (422) and in the delivery log. */
export const CONTROL_URL_MESSAGE =
  "The callback_url may not point at the sandbox's control API (/api/sandbox/_control).";
