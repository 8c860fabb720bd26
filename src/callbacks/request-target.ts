/** The parts of a request's URL the receiver reads (a `URL` has them all). */
export interface RequestTarget {
  pathname: string;
  /** `''` or `?…`, as `URL.search`. */
  search: string;
  searchParams: URLSearchParams;
}

/** A path of plain segments (`/callback`, `/pesakit/return/`): `URL` would not change it. */
const plainPath = /^(?:\/[\w-]+)*\/?$/;

/**
 * The request target of `url` (a path with its query, under the mount point). Plain paths —
 * every callback — are split without building a `URL` (a few µs per callback, measured);
 * anything else (`..`, percent-escapes, `//`, a fragment) goes through `new URL` so that it is
 * read exactly as before. Throws like `new URL` for a target that is not a URL.
 */
export function requestTarget(url: string): RequestTarget {
  const query = url.indexOf('?');
  const pathname = query < 0 ? url : url.slice(0, query);
  if (plainPath.test(pathname) && !url.includes('#')) {
    const search = query < 0 || query === url.length - 1 ? '' : url.slice(query);
    return { pathname, search, searchParams: new URLSearchParams(search) };
  }
  return new URL(url, 'http://receiver.invalid');
}
