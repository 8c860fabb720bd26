import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';

export interface ReceiverServer {
  /** The mount point's URL: `${url}/callback`, `${url}/return`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A plain node:http server on a free loopback port that hands every request under `/pesakit`
 * to `receiver.receive()` — the framework-free use of the receiver.
 */
export async function serveReceiver(receiver: CallbackReceiver): Promise<ReceiverServer> {
  const prefix = '/pesakit';
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      if (!path.startsWith(prefix)) {
        response.writeHead(404).end();
        return;
      }
      receiver
        .receive({
          method: request.method ?? 'GET',
          url: path.slice(prefix.length) || '/',
          headers: request.headers,
          body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
        })
        .then((answer) => response.writeHead(answer.status, answer.headers).end(answer.body))
        .catch(() => response.writeHead(500).end());
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  what = 'the expected state',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
