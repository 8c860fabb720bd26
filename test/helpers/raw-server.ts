import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawServer {
  readonly url: string;
  /** Every request the server has read in full, in arrival order. */
  readonly requests: Array<{ method: string; path: string; body: string }>;
  close(): Promise<void>;
}

/**
 * A bare node:http server on a free loopback port whose handler sees each request after its
 * body has been read — so a handler that destroys the socket does so *after* the request
 * reached the server, the case an SDK cannot tell from success.
 */
export async function startRawServer(
  handle: (request: IncomingMessage, response: ServerResponse, body: string) => void,
): Promise<RawServer> {
  const requests: RawServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', path: request.url ?? '', body });
      handle(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
