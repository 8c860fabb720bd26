import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { pesakitExpress } from '../../src/express.js';
import { describeReceiverMount } from './receiver-scenarios.js';

describeReceiverMount('express');

describe('express: the middleware in a nested router', () => {
  it('sees the path under its own mount point, however deep', async () => {
    // Not started and never reached: these requests are all answered before any status pull.
    const receiver = new Pesakit({ baseUrl: 'http://127.0.0.1:9' }).createCallbackReceiver();
    const shop = express.Router();
    shop.use('/pesakit', pesakitExpress(receiver));
    const app = express();
    app.use('/shop', shop);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const unknown = await fetch(`${url}/shop/pesakit/nowhere?x=1`);
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
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });
});
