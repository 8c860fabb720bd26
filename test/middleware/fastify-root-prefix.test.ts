import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { pesakitFastify } from '../../src/fastify.js';

// With `prefix: '/'` the plugin's catch-all route took every
// path the app had no route for, so pesakit's "Nothing at …" 404 answered them instead of the
// app's own `setNotFoundHandler` (the app's routes still worked). At the root the paths are the
// app's: pesakit answers only its own — `/callback` and `/return` — and the rest is the app's.

async function rootApp(prefix: string) {
  // Not started and never reached: these requests are all answered before any status pull.
  const receiver = new Pesakit({ baseUrl: 'http://127.0.0.1:9' }).createCallbackReceiver();
  const app = Fastify();
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ shop: 'not found', path: request.url }),
  );
  app.get('/orders', async () => ({ orders: [] }));
  await app.register(pesakitFastify, { receiver, prefix });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url };
}

describe("fastify with prefix '/'", () => {
  it.each(['/', ''])(
    'prefix %j: unknown paths reach the app’s not-found handler; pesakit’s and the app’s routes answer',
    async (prefix) => {
      const { app, url } = await rootApp(prefix);
      try {
        for (const path of ['/nowhere', '/shop/page', '/callbackx', '/returns']) {
          const unknown = await fetch(`${url}${path}`);
          expect(unknown.status, path).toBe(404);
          expect(await unknown.json(), path).toEqual({ shop: 'not found', path });
        }
        expect(await (await fetch(`${url}/orders`)).json()).toEqual({ orders: [] });
        // pesakit's own paths are still pesakit's, trailing slash or not.
        for (const path of ['/callback', '/callback/']) {
          const wrongType = await fetch(`${url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain' },
            body: 'status=true',
          });
          expect(wrongType.status, path).toBe(415);
        }
        const put = await fetch(`${url}/callback`, { method: 'PUT' });
        expect(put.status).toBe(405);
        const ret = await fetch(`${url}/return/?external_reference=nothing-here`, {
          redirect: 'manual',
        });
        expect(ret.status).toBe(404);
        expect(await ret.json()).toMatchObject({ status: 'not_found' }); // the receiver's answer
      } finally {
        await app.close();
      }
    },
  );
});

describe("fastify with prefix '/' inside an enclosing prefix", () => {
  it('answers /shop/callback; other /shop paths reach the enclosing context’s not-found handler', async () => {
    const receiver = new Pesakit({ baseUrl: 'http://127.0.0.1:9' }).createCallbackReceiver();
    const app = Fastify();
    await app.register(
      async (shop) => {
        shop.setNotFoundHandler((request, reply) =>
          reply.code(404).send({ shop: 'not found', path: request.url }),
        );
        await shop.register(pesakitFastify, { receiver, prefix: '/' });
      },
      { prefix: '/shop' },
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const unknown = await fetch(`${url}/shop/nowhere`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ shop: 'not found', path: '/shop/nowhere' });
      const wrongType = await fetch(`${url}/shop/callback`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'status=true',
      });
      expect(wrongType.status).toBe(415);
    } finally {
      await app.close();
    }
  });
});
