// A small shop on Express 5 taking mobile-money payments with pesakit.
// Run it against the sandbox (see README.md): PESAKIT_BASE_URL=http://127.0.0.1:4010 npx tsx server.ts
import Database from 'better-sqlite3';
import express from 'express';
import { isRequestValidationError, Pesakit } from 'pesakit';
import { pesakitExpress } from 'pesakit/express';
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

const app = express();
app.use(
  '/pesakit',
  pesakitExpress(receiver, {
    returnUrls: { paid: '/return/paid', pending: '/return/pending', failed: '/return/failed' },
  }),
);
// The shop's own JSON parser, after pesakit's mount point (pesakit reads its own bodies, so
// the order does not matter).
app.use(express.json());

let publicUrl = process.env['PUBLIC_URL'] ?? '';

// A phone (USSD push) payment for a new order.
app.post('/orders', async (req, res) => {
  const amount = Number(req.body?.amount);
  const msisdn = String(req.body?.msisdn ?? '');
  if (!Number.isInteger(amount) || amount <= 0) {
    res.status(422).json({ message: 'The amount must be a whole number of shillings.' });
    return;
  }
  const order = orders.create(amount);
  try {
    await pesakit.collection.initiateMno(
      { amount, msisdn, callback_url: `${publicUrl}/pesakit/callback` },
      { merchantReference: order.merchantReference },
    );
    res.status(201).json(orders.find(order.id));
  } catch (error) {
    // Bad input is the customer's to fix; anything else leaves the order awaiting payment, and
    // pesakit's receiver (or reconciler) settles it when the outcome is known.
    const status = isRequestValidationError(error) ? 422 : 502;
    res.status(status).json({ message: (error as Error).message, order: orders.find(order.id) });
  }
});

// A hosted secure checkout for a new order: the customer pays on the platform's page and comes
// back to <publicUrl>/pesakit/return, which pesakit verifies before redirecting.
app.post('/orders/checkout', async (req, res) => {
  const amount = Number(req.body?.amount);
  if (!Number.isInteger(amount) || amount <= 0) {
    res.status(422).json({ message: 'The amount must be a whole number of shillings.' });
    return;
  }
  const order = orders.create(amount);
  const checkout = await pesakit.collection.createCheckout(
    { amount, callback_url: `${publicUrl}/pesakit/return` },
    { merchantReference: order.merchantReference },
  );
  res.status(201).json({ ...orders.find(order.id), paymentUrl: checkout.payment_url });
});

app.get('/orders/:id', (req, res) => {
  const order = orders.find(Number(req.params['id']));
  if (order) res.json(order);
  else res.status(404).json({ message: 'No such order.' });
});

// Where pesakit sends the browser after a verified checkout return.
const pages = {
  paid: 'Thank you, your payment was received.',
  pending:
    'Your payment is being confirmed. This page will not change by itself: check your order later.',
  failed: 'The payment did not go through. You have not been charged.',
};
for (const [outcome, text] of Object.entries(pages)) {
  app.get(`/return/${outcome}`, (_req, res) => {
    res.type('html').send(`<!doctype html><title>${outcome}</title><p>${text}</p>`);
  });
}

const server = app.listen(Number(process.env['PORT'] ?? 3000), '127.0.0.1', (error) => {
  // Express 5 hands a listen error (EADDRINUSE: the port is taken) to this callback; ignored,
  // the shop would run without serving anything. Stop with the error instead.
  if (error) throw error;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  publicUrl ||= `http://127.0.0.1:${port}`;
  receiver.start();
  console.log(`shop listening on ${publicUrl}`);
});

const shutDown = () => {
  server.close(async () => {
    await receiver.close();
    await store.close();
    database.close();
  });
};
process.on('SIGTERM', shutDown);
process.on('SIGINT', shutDown);
