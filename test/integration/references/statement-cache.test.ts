import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../../src/references/sql/statement-cache.js';

// The SQLite store's statements are prepared once per SQL text (src/references/sql/
// statement-cache.ts); the store conformance suite runs every store method through it. These
// pin the cache's own rules on a real better-sqlite3 database.
describe('the SQLite statement cache', () => {
  function open() {
    const database = new Database(':memory:');
    database.exec('create table t (id integer primary key, name text)');
    return { database, cached: withStatementCache(database) };
  }

  it('hands out the same prepared statement for the same SQL, and it keeps working', () => {
    const { database, cached } = open();
    const insert = cached.prepare('insert into t (name) values (?)');
    expect(cached.prepare('insert into t (name) values (?)')).toBe(insert);
    insert.run(['Neema']);
    cached.prepare('insert into t (name) values (?)').run(['Baraka']);
    expect(cached.prepare('select name from t order by id').all([])).toEqual([
      { name: 'Neema' },
      { name: 'Baraka' },
    ]);
    database.close();
  });

  it('never hands out a statement that is still being iterated', () => {
    const { database, cached } = open();
    for (const name of ['a', 'b', 'c'])
      cached.prepare('insert into t (name) values (?)').run([name]);
    const select = 'select name from t order by id';
    const rows = cached.prepare(select).iterate([]);
    expect(rows.next().value).toEqual({ name: 'a' });
    // Mid-iteration: the cached statement is busy, so a fresh one answers the same SQL.
    const again = cached.prepare(select);
    expect(again.all([])).toHaveLength(3);
    expect([...rows]).toEqual([{ name: 'b' }, { name: 'c' }]);
    database.close();
  });

  it('keeps at most 256 statements, dropping the least recently used', () => {
    const { database, cached } = open();
    const first = cached.prepare('select 0 as n');
    const kept = cached.prepare('select 1 as n');
    for (let n = 2; n <= 256; n++) cached.prepare(`select ${n} as n`);
    // `kept` used again: the most recent now; `first` is the oldest and goes next.
    expect(cached.prepare('select 1 as n')).toBe(kept);
    cached.prepare('select 257 as n');
    expect(cached.prepare('select 1 as n')).toBe(kept);
    expect(cached.prepare('select 0 as n')).not.toBe(first);
    database.close();
  });

  it('sees a schema change made after a statement was cached', () => {
    const { database, cached } = open();
    cached.prepare('insert into t (name) values (?)').run(['Neema']);
    const select = 'select * from t';
    expect(Object.keys(cached.prepare(select).all([])[0] as object)).toEqual(['id', 'name']);
    database.exec('alter table t add column city text');
    expect(Object.keys(cached.prepare(select).all([])[0] as object)).toEqual([
      'id',
      'name',
      'city',
    ]);
    database.close();
  });

  it('close() closes the database', () => {
    const { database, cached } = open();
    cached.prepare('select 1').all([]);
    cached.close();
    expect(database.open).toBe(false);
  });
});
