import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { pesakitExpress } from '../../src/express.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import { harnessPerFile } from '../helpers/sandbox-lifetime.js';

// In an Express sub-app mounted at `/shop`, a relative
// return URL (`/thanks`) sent the browser to the host's `/thanks`, not `/shop/thanks`. Decided
// (docs/callbacks.md, "Return URLs"): a return URL is a `Location` as written — a path starting
// with `/` is the host's, exactly as Express's own `res.redirect('/thanks')` in the same sub-app
// — because the same receiver's URLs also serve Fastify and hand-written adapters, where there
// is no mount path to add. A sub-app writes its mount path itself (`/shop/thanks`).

const sandbox = harnessPerFile();

describe('relative return URLs in an Express sub-app', () => {
  it('are the host’s paths, as res.redirect’s are: the sub-app writes its mount path', async () => {
    const store = new MemoryReferenceStore();
    const pesakit = sandbox.harness.client({ store });
    const receiver = pesakit.createCallbackReceiver();
    const shop = express();
    shop.use('/pesakit', pesakitExpress(receiver, { returnUrls: { pending: '/thanks' } }));
    shop.get('/redirect', (_req, res) => res.redirect(303, '/thanks'));
    const app = express();
    app.use('/shop', shop);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const created = await pesakit.collection.createCheckout(
        { amount: 12_000, callback_url: `${url}/shop/pesakit/return` },
        { merchantReference: 'sub-app-1' },
      );
      const back = await fetch(
        `${url}/shop/pesakit/return?external_reference=${created.external_reference}`,
        { redirect: 'manual' },
      );
      expect(back.status).toBe(303);
      expect(back.headers.get('location')).toBe('/thanks?merchant_reference=sub-app-1');
      // Express's own redirect from the same sub-app goes to the same place.
      const own = await fetch(`${url}/shop/redirect`, { redirect: 'manual' });
      expect(own.headers.get('location')).toBe('/thanks');
    } finally {
      server.close();
      await receiver.close();
    }
  });
});
