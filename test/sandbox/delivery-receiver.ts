import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One callback as a merchant's server saw it. */
export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  body: unknown;
  /** performance.now() when the request arrived. */
  at: number;
}

/**
 * A merchant's callback endpoint on loopback, port 0. `respond` picks the status for each
 * request (by arrival index); `'never'` holds the request open to provoke a timeout. Emits
 * `'request'` with each ReceivedCallback, before answering.
 */
export class CallbackReceiver extends EventEmitter {
  readonly received: ReceivedCallback[] = [];
  respond: (index: number, callback: ReceivedCallback) => number | 'never' = () => 200;
  readonly #server: Server;

  constructor() {
    super();
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const callback = {
          headers: request.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
          at: performance.now(),
        };
        const index = this.received.push(callback) - 1;
        this.emit('request', callback);
        const status = this.respond(index, callback);
        if (status === 'never') return;
        response.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
  }

  async listen(): Promise<string> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/callbacks/collection`;
  }

  /** Resolves with the request once `count` requests have arrived in total. */
  async waitFor(count: number): Promise<ReceivedCallback[]> {
    while (this.received.length < count) await once(this, 'request');
    return this.received;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }
}

/** A loopback URL on which nothing listens: a port was bound, then released. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return `http://127.0.0.1:${port}/callbacks`;
}
