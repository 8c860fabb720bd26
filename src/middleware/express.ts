import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ReceivedRequest } from '../callbacks/http.js';
import type { ReturnUrls } from '../callbacks/return-urls.js';
import { checkReturnUrls } from '../callbacks/return-urls.js';
import { type MountableReceiver, receiveOptions } from './mountable-receiver.js';
import { bodyTooLargeResponse, declaresTooLarge, sendReceiverResponse } from './node-response.js';

export interface PesakitExpressOptions {
  /** Return pages by outcome; win over the receiver's. A path is the host's, as with `res.redirect`. */
  returnUrls?: ReturnUrls;
}

/** The callback receiver as Express 5 middleware; reads the raw body itself (up to
 * `receiver.maxBodyBytes`), or takes `req.rawBody`/`req.body` when a parser came first. */
export function pesakitExpress(
  receiver: MountableReceiver,
  options: PesakitExpressOptions = {},
): RequestHandler {
  // A bad return URL is a mistake of the app's setup: say so when it is mounted.
  checkReturnUrls(options.returnUrls);
  return (req: Request, res: Response, next: NextFunction) => {
    const url = receiverUrlOf(req);
    // Mounted at the app's root: a request that is not pesakit's is the app's.
    if (url === undefined) return next();
    handle(receiver, options, req, res, url).catch(next);
  };
}

async function handle(
  receiver: MountableReceiver,
  options: PesakitExpressOptions,
  req: Request,
  res: Response,
  url: string,
): Promise<void> {
  const limit = receiver.maxBodyBytes;
  // A body parser in front (express.json(), express.raw(), …) has already read the stream.
  const alreadyRead = req.readableEnded;
  if (declaresTooLarge(req.headers, limit)) {
    sendTooLarge(req, res, limit);
    return;
  }
  let body: unknown;
  if (alreadyRead) {
    // Raw bytes beat a parsed object: they are what gets stored (`req.rawBody` via `verify`).
    const { rawBody } = req as Request & { rawBody?: unknown };
    body = Buffer.isBuffer(rawBody) ? rawBody : req.body;
  } else {
    const reading = await readBody(req, limit);
    if (!reading.ok) {
      if (reading.reason === 'too_large') sendTooLarge(req, res, limit);
      else res.destroy();
      return;
    }
    body = reading.body.length > 0 ? reading.body : undefined;
  }
  const request: ReceivedRequest = {
    method: req.method,
    // The path under the mount point: '/pesakit/callback?x' arrives as '/callback?x'.
    url,
    headers: req.headers,
    ...(body === undefined ? {} : { body }),
    // The socket's address, or the client's as `trust proxy` reads it: its callback budget.
    ...(req.ip ? { source: req.ip } : {}),
  };
  sendReceiverResponse(res, await receiver.receive(request, receiveOptions(options)));
}

function sendTooLarge(req: Request, res: Response, limit: number) {
  // The rest of the body is discarded unread; `connection: close` ends the socket after the 413.
  req.resume();
  sendReceiverResponse(res, bodyTooLargeResponse(limit));
}

const receiverPaths: ReadonlySet<string> = new Set(['/callback', '/return']);

/** The receiver's URL for this request, or `undefined` when it is the app's (at the root, only
 * `/callback` and `/return` are the receiver's). */
function receiverUrlOf(req: Request): string | undefined {
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

type BodyReading = { ok: true; body: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

/** Reads a body, refusing it as soon as it passes `limit` bytes, so no body can grow the heap
 * (a declared length over it was refused before). */
function readBody(request: IncomingMessage, limit: number): Promise<BodyReading> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (reading: BodyReading) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAbort);
      request.off('aborted', onAbort);
      resolve(reading);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop reading: the answer (413) goes out now; the socket is closed after it.
        request.pause();
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onAbort = () => finish({ ok: false, reason: 'aborted' });
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onAbort);
    request.on('aborted', onAbort);
  });
}
