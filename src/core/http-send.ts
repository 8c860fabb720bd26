import type { IncomingMessage } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The global fetch as it was when pesakit was loaded. While `globalThis.fetch` is still that
 * one, a call without an injected fetch goes out through `node:http` instead (`sendOverHttp`);
 * once someone replaces the global (a test harness, a tracing library), pesakit follows it, as
 * `TransportOptions.fetch`'s documented default ("looked up at call time") promises.
 */
const fetchAtLoad = globalThis.fetch;

/** Whether an attempt without an injected fetch may go out through `node:http`. */
export function globalFetchIsNodes(): boolean {
  return globalThis.fetch === fetchAtLoad;
}

/** What the transport reads of an answer: the part of a fetch `Response` it uses. */
export interface PlatformAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;
  text(): Promise<string>;
}

/** One request as the send route prepared it: a JSON string body, checked headers. */
export interface HttpRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly signal: AbortSignal;
}

/**
 * Sends one request with `node:http`/`node:https` and the process's global agents (keep-alive
 * in Node 20, and whatever a proxy library installed there). Why not fetch: Node 20's fetch
 * (undici behind the WHATWG layer: Request, Headers, streams, a body mixin) costs 250–390 µs of
 * CPU a call on loopback where `node:http` costs 55–65 µs — measured side by side against the
 * sandbox at concurrency 8 (docs/benchmarks.md, stop 20). For the reconciler, which makes tens
 * of thousands of status calls a pass on one thread, that is most of its time.
 *
 * The answer resolves once the headers are in, as fetch's does; its body is read from then on
 * (so a slow body never holds the socket back) and `text()` gives it, decoded from gzip, deflate
 * or brotli when the server compressed it anyway (pesakit does not ask for compression).
 * `onSending` runs once the request object is built: a throw before it (a header Node refuses)
 * sent nothing. Aborting `signal` destroys the request, before or after the headers.
 */
export function sendOverHttp(request: HttpRequest, onSending: () => void): Promise<PlatformAnswer> {
  return new Promise<PlatformAnswer>((resolve, reject) => {
    const { signal } = request;
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = Buffer.byteLength(request.body);
    const send = request.url.startsWith('https:') ? https.request : http.request;
    const outgoing = send(request.url, { method: request.method, headers });
    // Set once the headers are in: from then on a failure is the body's, not the answer's.
    let failBody: ((error: unknown) => void) | undefined;
    const abort = () => outgoing.destroy(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    const done = () => signal.removeEventListener('abort', abort);
    // `on`, not `once`: a second error from a request already failing must not go unhandled.
    outgoing.on('error', (error) => {
      done();
      if (failBody) failBody(error);
      else reject(error);
    });
    outgoing.once('response', (incoming) => {
      const text = new Promise<string>((resolveText, rejectText) => {
        failBody = rejectText;
        readBody(incoming).then(resolveText, rejectText);
      });
      text.then(done, done);
      const status = incoming.statusCode ?? 0;
      let built: Headers | undefined;
      resolve({
        status,
        ok: status >= 200 && status < 300,
        get headers() {
          built ??= headersOf(incoming.rawHeaders);
          return built;
        },
        text: () => text,
      });
    });
    onSending();
    if (signal.aborted) abort();
    outgoing.end(request.body);
  });
}

/** The body of an answer as text, decompressed when the server sent it compressed. */
function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const decoder = decoderFor(incoming.headers['content-encoding']);
    const source = decoder ? incoming.pipe(decoder) : incoming;
    const chunks: Buffer[] = [];
    source.on('data', (chunk: Buffer) => chunks.push(chunk));
    source.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    source.on('error', reject);
    if (decoder) incoming.on('error', reject);
    // A connection cut mid-body ends the message without 'end' (`complete` stays false).
    incoming.once('close', () => {
      if (!incoming.complete) reject(new Error('the connection closed before the answer ended'));
    });
  });
}

function decoderFor(encoding: string | undefined) {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2)
    headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}
