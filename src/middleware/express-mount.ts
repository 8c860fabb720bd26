import type { Request } from 'express';

const receiverPaths: ReadonlySet<string> = new Set(['/callback', '/return']);

/** The receiver's URL for this request, or `undefined` when it is the app's (at the root, only
 * `/callback` and `/return` are the receiver's). */
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
