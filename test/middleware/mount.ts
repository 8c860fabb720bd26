import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import type { ReturnUrls } from '../../src/callbacks/return-urls.js';
import { pesakitExpress } from '../../src/express.js';
import { pesakitFastify } from '../../src/fastify.js';
import type { MountableReceiver } from '../../src/middleware/mountable-receiver.js';

export type Framework = 'express' | 'fastify';

export interface MountOptions {
  returnUrls?: ReturnUrls;
  /**
   * The app's own body parsing in front of pesakit: `express.json()` for Express (so pesakit
   * gets an already-parsed `req.body`), a custom root JSON parser for Fastify.
   */
  appJsonParser?: boolean;
  /** Behind a proxy: the client's address is read from `X-Forwarded-For`. */
  trustProxy?: boolean;
}

export interface MerchantApp {
  /** The app's origin, `http://127.0.0.1:<port>`; pesakit is mounted at `/pesakit`. */
  url: string;
  /** A route of the app itself, proving its own body parsing still works next to pesakit. */
  ownRoute: string;
  close(): Promise<void>;
}

/** A real Express 5 or Fastify 5 app on a free loopback port with pesakit at `/pesakit`. */
export function startMerchantApp(
  framework: Framework,
  receiver: MountableReceiver,
  options: MountOptions = {},
): Promise<MerchantApp> {
  return framework === 'express'
    ? startExpress(receiver, options)
    : startFastify(receiver, options);
}

async function startExpress(receiver: MountableReceiver, options: MountOptions) {
  const app = express();
  if (options.trustProxy) app.set('trust proxy', true);
  if (options.appJsonParser) app.use(express.json());
  app.use(
    '/pesakit',
    pesakitExpress(receiver, options.returnUrls ? { returnUrls: options.returnUrls } : {}),
  );
  app.post('/own', express.json(), (req, res) => {
    res.json({ own: req.body });
  });
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ownRoute: '/own',
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function startFastify(receiver: MountableReceiver, options: MountOptions) {
  const app = Fastify({ trustProxy: options.trustProxy ?? false });
  if (options.appJsonParser) {
    // The app replaces Fastify's JSON parser with its own, marking what it parsed.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, { parsedByApp: JSON.parse(String(body)) });
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  }
  await app.register(pesakitFastify, {
    receiver,
    prefix: '/pesakit',
    ...(options.returnUrls ? { returnUrls: options.returnUrls } : {}),
  });
  app.post('/own', async (request) => ({ own: request.body }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, ownRoute: '/own', close: () => app.close() };
}
