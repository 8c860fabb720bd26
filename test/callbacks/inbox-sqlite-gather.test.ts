import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import type { InboxInsert } from '../../src/references/inbox/sqlite-group-append.js';
import { SqliteGroupAppender } from '../../src/references/inbox/sqlite-group-append.js';
import type { InboxEntry } from '../../src/references/inbox/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { callback } from './inbox-conformance.js';

// The SQLite inbox's gathering window (`inbox: { gatherMs }`): while callbacks are flowing, a
// small group waits up to gatherMs after its first callback for more to join its commit; a lone
// callback is committed at once. What must not change: an append is answered only after the
// commit that holds it.
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An appender over a write that commits at once and records each group's size. */
function recordingAppender(gatherMs: number) {
  const groups: number[] = [];
  const appender = new SqliteGroupAppender(
    (work) => work(),
    async (inserts) => {
      groups.push(inserts.length);
      return inserts.map(() => ({ kind: 'inserted' as const }));
    },
    gatherMs,
  );
  let serial = 0;
  const append = async () => {
    serial += 1;
    const started = performance.now();
    await appender.append([`id${serial}`] as unknown as InboxInsert, {} as InboxEntry);
    return performance.now() - started;
  };
  return { groups, append };
}

/** `count` appends, one every `everyMs`, as callbacks arriving on their own connections. */
async function flow(append: () => Promise<number>, count: number, everyMs: number) {
  const answers: Array<Promise<number>> = [];
  for (let i = 0; i < count; i += 1) {
    answers.push(append());
    await sleep(everyMs);
  }
  return Promise.all(answers);
}

describe('the SQLite inbox: gathering window', () => {
  it('gathers a flow of callbacks into fewer commits, none waiting past the window', async () => {
    const without = recordingAppender(0);
    await flow(without.append, 40, 3);
    // Without a window, each callback of a slow flow is a commit of its own.
    expect(without.groups.length).toBeGreaterThanOrEqual(30);

    const gatherMs = 60;
    const gathering = recordingAppender(gatherMs);
    const latencies = await flow(gathering.append, 40, 3);
    expect(gathering.groups.reduce((a, b) => a + b, 0)).toBe(40);
    // ~120 ms of arrivals in windows of 60 ms: a handful of commits (slack for a loaded machine).
    expect(gathering.groups.length).toBeLessThanOrEqual(10);
    expect(Math.max(...gathering.groups)).toBeGreaterThan(3);
    // No answer waits much past the window (the commit here takes no time).
    for (const latency of latencies) expect(latency).toBeLessThan(gatherMs + 50);
  });

  it('commits a lone callback at once, without waiting for the window', async () => {
    const { groups, append } = recordingAppender(50);
    const first = await append();
    await sleep(120); // quiet: longer than the window
    const second = await append();
    expect(groups).toEqual([1, 1]);
    expect(first).toBeLessThan(25);
    expect(second).toBeLessThan(25);
  });

  it('after waits that brought nobody, the next groups commit at once (1, 2, 4 … of them)', async () => {
    const { groups, append } = recordingAppender(40);
    // A closed loop: four clients, each sending again only once answered.
    const rounds: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      const started = performance.now();
      await Promise.all([append(), append(), append(), append()]);
      rounds.push(performance.now() - started);
    }
    expect(groups).toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
    // Waits in rounds 0, 2 and 5 (in vain each time); none in the five others.
    const quick = rounds.filter((ms) => ms < 20).length;
    expect(quick).toBeGreaterThanOrEqual(5);
  });

  it('commits as soon as the gathering group is big enough', async () => {
    const { groups, append } = recordingAppender(50);
    await append(); // the flow starts
    const started = performance.now();
    const one = append(); // within the window of the last: gathers
    await sleep(5);
    const many = Array.from({ length: 40 }, () => append());
    await Promise.all([one, ...many]);
    expect(performance.now() - started).toBeLessThan(40);
    expect(groups.slice(1).reduce((a, b) => a + b, 0)).toBe(41);
  });

  it('answers each gathered callback only after its row is committed', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'pesakit-inbox-gather-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const file = join(directory, 'store.sqlite');
    const store = await SqliteReferenceStore.open(file, { inbox: { gatherMs: 20 } });
    cleanups.push(() => store.close());
    const reader = new Database(file, { readonly: true });
    cleanups.push(() => {
      reader.close();
    });
    const stored = reader.prepare('select count(*) as n from pesakit_callback_inbox where id = ?');
    const seen: number[] = [];
    const appends: Array<Promise<void>> = [];
    for (let i = 0; i < 30; i += 1) {
      appends.push(
        store.inbox.append(callback(`W${i}`)).then(({ entry }) => {
          seen.push((stored.get(entry.id) as { n: number }).n);
        }),
      );
      await sleep(2);
    }
    await Promise.all(appends);
    expect(seen).toEqual(Array.from({ length: 30 }, () => 1));
  });

  it('refuses a bad inbox option, naming it, before the file is touched', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'pesakit-inbox-gather-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    const file = join(directory, 'store.sqlite');
    for (const [inbox, option] of [
      [{ gatherMs: -1 }, 'inbox.gatherMs'],
      [{ gatherMs: 51 }, 'inbox.gatherMs'],
      [{ gatherMs: Number.NaN }, 'inbox.gatherMs'],
      [{ gatherMs: '2' }, 'inbox.gatherMs'],
      [{ gatherMS: 2 }, 'inbox'],
    ] as const) {
      const opened = SqliteReferenceStore.open(file, { inbox: inbox as never });
      await expect(opened).rejects.toBeInstanceOf(ConfigurationError);
      await expect(opened).rejects.toMatchObject({ option });
      expect(existsSync(file)).toBe(false);
    }
  });
});
