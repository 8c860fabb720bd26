export const CONTROL_PREFIX = '/api/sandbox/_control';

/** Marks every callback delivery; the control API refuses it, so `callback_url` is no SSRF. */
export const DELIVERY_MARK_HEADER = 'x-pesakit-sandbox-delivery';

/** True when a URL's path is under the control API, however spelled; the host is not checked. */
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

/** A URL path as a server reads it: decoded repeatedly, dot segments resolved each time. */
export function decodedPath(path: string): string {
  for (let round = 0; round < 3; round += 1) {
    try {
      const decoded = decodeURIComponent(path);
      if (decoded === path) break;
      // Prefixed with an origin, so a decoded `//name` stays a path.
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
