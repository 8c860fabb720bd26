// The shop's own orders, in the same SQLite file as pesakit's store. An order is only ever
// marked paid from `onPaid`, which pesakit calls after it has verified the payment with the
// platform: never from a callback body or the browser's return URL.
class Orders {
  #db;

  /** @param {import('better-sqlite3').Database} db */
  constructor(db) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS orders (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      amount INTEGER NOT NULL,
      status TEXT NOT NULL DEFAULT 'awaiting_payment',
      merchant_reference TEXT NOT NULL UNIQUE
    )`);
  }

  create(amount) {
    const reference = `order-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const row = this.#db
      .prepare('INSERT INTO orders (amount, merchant_reference) VALUES (?, ?) RETURNING *')
      .get(amount, reference);
    if (!row) throw new Error('The order was not created.');
    return toOrder(row);
  }

  find(id) {
    const row = this.#db.prepare('SELECT * FROM orders WHERE id = ?').get(id);
    return row ? toOrder(row) : undefined;
  }

  /** Idempotent: pesakit may call a handler again until it completes, so a repeat changes nothing. */
  mark(merchantReference, status) {
    this.#db
      .prepare('UPDATE orders SET status = ? WHERE merchant_reference = ?')
      .run(status, merchantReference);
  }
}

function toOrder(row) {
  return {
    id: row.id,
    amount: row.amount,
    status: row.status,
    merchantReference: row.merchant_reference,
  };
}

module.exports = { Orders };
