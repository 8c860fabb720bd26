import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SqliteReferenceStore } from '../../../src/sqlite.js';

// The checkpointer thread cannot start (here: its `require` of the driver fails, as in a bundle
// whose better-sqlite3 is not where pesakit resolves it): the store's connection must go back to
// its own automatic checkpoint, or the WAL would only be bounded by the 4,000-page backstop and
// nothing would copy it. A module of this file's own, so the mock touches no other test.
const resolved = vi.hoisted(() => vi.fn(() => '/nonexistent/pesakit-test/better-sqlite3.node'));
vi.mock('../../../src/references/sql/better-sqlite-path.js', () => ({
  betterSqlitePath: resolved,
}));

const dir = mkdtempSync(join(tmpdir(), 'pesakit-checkpointer-fallback-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a store file whose checkpointer cannot start', () => {
  it("keeps SQLite's default automatic checkpoint on its own connection", async () => {
    const database = new Database(join(dir, 'store.sqlite'));
    database.pragma('journal_mode = WAL');
    const store = await SqliteReferenceStore.open(database);
    // (The inbox looks the driver up at open for its writer thread; the checkpointer does not.)
    const atOpen = resolved.mock.calls.length;
    try {
      for (let n = 0; n < 60; n++) {
        await store.createIntent({
          merchantReference: `m-${n}`,
          product: 'airtime',
          flow: 'airtime_purchase',
          amount: 1000,
        });
      }
      // The writes were enough to try (the driver was looked up for the thread)...
      const deadline = Date.now() + 10_000;
      while (resolved.mock.calls.length === atOpen && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(resolved.mock.calls.length - atOpen).toBe(1);
      // ...and once the thread has failed, the connection checkpoints in its commits again.
      let pages = Number(database.pragma('wal_autocheckpoint', { simple: true }));
      while (pages !== 1000 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        pages = Number(database.pragma('wal_autocheckpoint', { simple: true }));
      }
      expect(pages).toBe(1000);
      // More writes do not try again: one failure is the policy for this store's life.
      for (let n = 60; n < 120; n++) {
        await store.createIntent({
          merchantReference: `m-${n}`,
          product: 'airtime',
          flow: 'airtime_purchase',
          amount: 1000,
        });
      }
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(resolved.mock.calls.length - atOpen).toBe(1);
      expect(Number(database.pragma('wal_autocheckpoint', { simple: true }))).toBe(1000);
    } finally {
      await store.close();
      database.close();
    }
  });
});
