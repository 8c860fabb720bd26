import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on a free loopback port, for what nock cannot imitate: sockets. */
export interface LocalServer {
  readonly url: string;
  /** How many requests arrived with their whole body read. */
  readonly received: () => number;
  close(): Promise<void>;
}

export async function startServer(
  onRequest: (request: http.IncomingMessage, response: http.ServerResponse) => void,
): Promise<LocalServer> {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      onRequest(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL where nothing listens: a port that was bound, then released. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
