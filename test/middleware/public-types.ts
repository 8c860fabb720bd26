// Compile-time checks of the adapters' public types: `npm run typecheck` (tsc over test/) fails
// if an accepted call stops compiling or a `@ts-expect-error` call starts to. Never run.
import express from 'express';
import type { FastifyInstance } from 'fastify';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { pesakitExpress } from '../../src/express.js';
import { pesakitFastify } from '../../src/fastify.js';

export async function fastifyPlugin(app: FastifyInstance, receiver: CallbackReceiver) {
  await app.register(pesakitFastify, { receiver });
  await app.register(pesakitFastify, {
    receiver,
    prefix: '/pesakit',
    returnUrls: { paid: '/thanks', pending: '/pending', failed: '/failed' },
  });
  // @ts-expect-error the receiver is required
  await app.register(pesakitFastify, { prefix: '/pesakit' });
  // @ts-expect-error return URLs are strings
  await app.register(pesakitFastify, { receiver, returnUrls: { paid: 1 } });
  // @ts-expect-error a receiver needs receive() and maxBodyBytes
  await app.register(pesakitFastify, { receiver: { maxBodyBytes: 1 } });
}

export function expressMiddleware(receiver: CallbackReceiver) {
  const app = express();
  app.use('/pesakit', pesakitExpress(receiver));
  app.use('/pesakit', pesakitExpress(receiver, { returnUrls: { paid: '/thanks' } }));
  // @ts-expect-error the receiver comes first
  app.use('/pesakit', pesakitExpress({ returnUrls: {} }));
  // @ts-expect-error returnUrls is the only option
  app.use('/pesakit', pesakitExpress(receiver, { prefix: '/pesakit' }));
}
