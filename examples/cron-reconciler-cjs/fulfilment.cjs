// The shop's side of a settled payment: one row per transaction, written by the reconciler's
// handlers. pesakit runs a handler at least once until it completes (a crash mid-handler runs
// it again), so the write is keyed by `effectKey` and a repeat changes nothing.
class Fulfilment {
  #db;

  /** @param {import('better-sqlite3').Database} db */
  constructor(db) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS fulfilment (
      effect_key TEXT PRIMARY KEY,
      outcome TEXT NOT NULL,
      amount REAL NOT NULL,
      note TEXT,
      recorded_at TEXT NOT NULL
    )`);
  }

  /** Records the outcome once; returns false when it was already recorded (a re-run). */
  record(effectKey, outcome, amount, note) {
    const result = this.#db
      .prepare(
        `INSERT INTO fulfilment (effect_key, outcome, amount, note, recorded_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (effect_key) DO NOTHING`,
      )
      .run(effectKey, outcome, amount, note ?? null, new Date().toISOString());
    return result.changes === 1;
  }
}

module.exports = { Fulfilment };
