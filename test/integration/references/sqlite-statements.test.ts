import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { reusingStatements } from '../../../src/references/sql/sqlite-statements.js';

describe('the SQLite handle the store gives Kysely', () => {
  const database = new Database(':memory:');
  database.exec('create table t (n integer)');
  database.exec('insert into t values (1), (2), (3)');
  afterEach(() => database.exec('delete from t where n > 3'));

  it('compiles a statement once and reuses it for the same text', () => {
    const handle = reusingStatements(database);
    const first = handle.prepare('select n from t order by n');
    expect(handle.prepare('select n from t order by n')).toBe(first);
    expect(first.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(handle.prepare('select n from t where n = ?')).not.toBe(first);
  });

  it('gives a statement still being iterated a fresh twin, so a stream and a query never clash', () => {
    const handle = reusingStatements(database);
    const text = 'select n from t order by n';
    const streaming = handle.prepare(text).iterate([]);
    expect(streaming.next().value).toEqual({ n: 1 });
    const twin = handle.prepare(text);
    expect(twin.all([])).toHaveLength(3);
    expect([...streaming]).toEqual([{ n: 2 }, { n: 3 }]);
    // Once the stream ends, the cached statement is free again.
    expect(handle.prepare(text).all([])).toHaveLength(3);
  });

  it('keeps at most 256 statements, dropping the least recently used', () => {
    const handle = reusingStatements(database);
    const compiled = Array.from({ length: 256 }, (_, n) => handle.prepare(`select ${n} as n`));
    // Used again: `select 0` and `select 2` are now the most recently used.
    expect(handle.prepare('select 0 as n')).toBe(compiled[0]);
    expect(handle.prepare('select 2 as n')).toBe(compiled[2]);
    // A 257th text drops the least recently used one, `select 1`, and keeps the rest.
    handle.prepare('select 256 as n');
    expect(handle.prepare('select 0 as n')).toBe(compiled[0]);
    expect(handle.prepare('select 3 as n')).toBe(compiled[3]);
    const recompiled = handle.prepare('select 1 as n');
    expect(recompiled).not.toBe(compiled[1]);
    expect(recompiled.all([])).toEqual([{ n: 1 }]);
  });
});
