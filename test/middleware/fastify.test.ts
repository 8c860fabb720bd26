import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { pesakitFastify } from '../../src/fastify.js';
import { describeReceiverMount } from './receiver-scenarios.js';

describeReceiverMount('fastify');

describe('fastify: the plugin in a nested context', () => {
  it('applies its prefix under an enclosing prefix and answers only under it', async () => {
    // Not started and never reached: these requests are all answered before any status pull.
    const receiver = new Pesakit({ baseUrl: 'http://127.0.0.1:9' }).createCallbackReceiver();
    const app = Fastify();
    await app.register(
      async (shop) => {
        await shop.register(pesakitFastify, { receiver, prefix: '/pesakit' });
      },
      { prefix: '/shop' },
    );
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const unknown = await fetch(`${url}/shop/pesakit/nowhere`);
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { message: string }).message).toMatch(
        /Nothing at \/nowhere/,
      );
      const wrongType = await fetch(`${url}/shop/pesakit/callback`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'status=true',
      });
      expect(wrongType.status).toBe(415);
      // Outside the prefix the plugin answers nothing: Fastify's own 404.
      const outside = await fetch(`${url}/pesakit/callback`, { method: 'POST' });
      expect(outside.status).toBe(404);
      expect(((await outside.json()) as { message: string }).message).toMatch(/Route POST/);
    } finally {
      await app.close();
    }
  });
});
