// A small shop on Fastify 5 taking mobile-money payments with pesakit.
// Run it against the sandbox (see README.md): PESAKIT_BASE_URL=http://127.0.0.1:4010 npx tsx server.ts
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { isRequestValidationError, Pesakit } from 'pesakit';
import { pesakitFastify } from 'pesakit/fastify';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { Orders } from './orders.js';

const baseUrl = process.env['PESAKIT_BASE_URL'] ?? 'http://127.0.0.1:4010';
const database = new Database(process.env['DATABASE_FILE'] ?? 'shop.sqlite');
const orders = new Orders(database);
const store = await SqliteReferenceStore.open(database);
const pesakit = new Pesakit({
  environment: 'sandbox',
  baseUrl,
  store,
  credentials: {
    collection: {
      email: process.env['PESAKIT_EMAIL'] ?? 'shop@example.co.tz',
      password: process.env['PESAKIT_PASSWORD'] ?? 'sandbox-pass-1',
    },
  },
});

// The only place an order changes state. pesakit calls these once the platform itself has
// confirmed the outcome (a callback alone is only a hint), and again until they complete.
const receiver = pesakit.createCallbackReceiver({
  onPaid: async (record) => orders.mark(record.merchantReference, 'paid'),
  onFailed: async (record) => orders.mark(record.merchantReference, 'failed'),
  // A person must look: an amount or reference mismatch,
  // or (record null) a callback that matches no order. A person settles it with
  // `resolveReview(pesakit.store, merchantReference, 'success' | 'failed', { note })`.
  onReview: async (record, verdict) => {
    console.warn(`needs review (${verdict.reason}): ${verdict.message}`);
    if (record) orders.mark(record.merchantReference, 'needs_review');
  },
});

const app = Fastify();
// pesakit's routes parse their own bodies in their own context; the shop's JSON parsing
// (Fastify's default here) is untouched.
await app.register(pesakitFastify, {
  receiver,
  prefix: '/pesakit',
  returnUrls: { paid: '/return/paid', pending: '/return/pending', failed: '/return/failed' },
});

let publicUrl = process.env['PUBLIC_URL'] ?? '';

interface NewOrder {
  amount: number;
  msisdn?: string;
}
const newOrder = {
  type: 'object',
  required: ['amount'],
  properties: { amount: { type: 'integer', minimum: 1 }, msisdn: { type: 'string' } },
} as const;

// A phone (USSD push) payment for a new order.
app.post<{ Body: NewOrder }>('/orders', { schema: { body: newOrder } }, async (request, reply) => {
  const order = orders.create(request.body.amount);
  try {
    await pesakit.collection.initiateMno(
      {
        amount: order.amount,
        msisdn: request.body.msisdn ?? '',
        callback_url: `${publicUrl}/pesakit/callback`,
      },
      { merchantReference: order.merchantReference },
    );
    return reply.code(201).send(orders.find(order.id));
  } catch (error) {
    // Bad input is the customer's to fix; anything else leaves the order awaiting payment, and
    // pesakit's receiver (or reconciler) settles it when the outcome is known.
    const status = isRequestValidationError(error) ? 422 : 502;
    return reply
      .code(status)
      .send({ message: (error as Error).message, order: orders.find(order.id) });
  }
});

// A hosted secure checkout for a new order: the customer pays on the platform's page and comes
// back to <publicUrl>/pesakit/return, which pesakit verifies before redirecting.
app.post<{ Body: NewOrder }>(
  '/orders/checkout',
  { schema: { body: newOrder } },
  async (request, reply) => {
    const order = orders.create(request.body.amount);
    const checkout = await pesakit.collection.createCheckout(
      { amount: order.amount, callback_url: `${publicUrl}/pesakit/return` },
      { merchantReference: order.merchantReference },
    );
    return reply.code(201).send({ ...orders.find(order.id), paymentUrl: checkout.payment_url });
  },
);

app.get<{ Params: { id: string } }>('/orders/:id', async (request, reply) => {
  const order = orders.find(Number(request.params.id));
  return order ? order : reply.code(404).send({ message: 'No such order.' });
});

// Where pesakit sends the browser after a verified checkout return.
const pages = {
  paid: 'Thank you, your payment was received.',
  pending:
    'Your payment is being confirmed. This page will not change by itself: check your order later.',
  failed: 'The payment did not go through. You have not been charged.',
};
for (const [outcome, text] of Object.entries(pages)) {
  app.get(`/return/${outcome}`, async (_request, reply) =>
    reply.type('text/html').send(`<!doctype html><title>${outcome}</title><p>${text}</p>`),
  );
}

app.addHook('onClose', async () => {
  await receiver.close();
  await store.close();
  database.close();
});

const address = await app.listen({ port: Number(process.env['PORT'] ?? 3000), host: '127.0.0.1' });
publicUrl ||= address;
receiver.start();
console.log(`shop listening on ${publicUrl}`);

const shutDown = () => void app.close();
process.on('SIGTERM', shutDown);
process.on('SIGINT', shutDown);
