import type { Request } from 'express';

/** The receiver's own paths, relative to its mount point. */
const receiverPaths: ReadonlySet<string> = new Set(['/callback', '/return']);

/**
 * The URL the receiver answers (its path under the mount point, with the query), or `undefined`
 * when the request is the app's and not pesakit's.
 *
 * - `app.use('/pesakit', …)` (or a router's `use` under a path): Express strips the mount path
 *   from `req.url`, and everything under it is the receiver's (unknown paths 404 there).
 * - As a route handler (`app.post('/pesakit/callback', …)`, `app.all('/pesakit/*splat', …)`):
 *   Express leaves the route's path in `req.url`; the last segment names the receiver's path.
 * - At the root (`app.use(…)` without a path): only `/callback` and `/return` are pesakit's; every
 *   other request goes on to the app's own routes rather than a 404 from pesakit.
 */
export function receiverUrlOf(req: Request): string | undefined {
  const url = req.url;
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  if (req.route !== undefined) {
    const last =
      path
        .split('/')
        .filter((segment) => segment !== '')
        .pop() ?? '';
    return `/${last}${query}`;
  }
  if (req.baseUrl === '' && !receiverPaths.has(path)) return undefined;
  return url;
}
