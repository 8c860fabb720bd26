import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { merchantCallback } from './payloads.js';

// The SQLite inbox commits each append (WAL, synchronous = FULL) before it is answered: a
// process killed mid-flow loses no callback it acknowledged.
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function directory(): string {
  const path = mkdtempSync(join(tmpdir(), 'pesakit-inbox-kill-'));
  cleanups.push(() => rmSync(path, { recursive: true, force: true }));
  return path;
}

function opened(file: string, options?: Database.Options): Database.Database {
  const database = new Database(file, options);
  cleanups.push(() => {
    database.close();
  });
  return database;
}

describe('kill -9 of a process acknowledging callbacks into SQLite', () => {
  const script = fileURLToPath(new URL('./fixtures/sqlite-ack-process.ts', import.meta.url));
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('loses no callback that was answered 200', async () => {
    const file = join(directory(), 'store.sqlite');
    child = spawn(process.execPath, ['--import', 'tsx', script, file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const running = child;
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      running.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const ready = /READY (\S+)/.exec(stdout);
        if (ready?.[1]) resolve(ready[1]);
      });
      running.once('exit', (code) => reject(new Error(`the receiver exited (${code})`)));
    });
    const exited = new Promise((resolve) => running.once('exit', resolve));
    const acknowledged: string[] = [];
    const deliver = async (n: number) => {
      const paymentReference = `CRASH${n}`;
      const body = merchantCallback({
        paymentReference,
        controlNumber: String(990_100_000 + n),
        amount: 15_000,
      });
      try {
        const response = await fetch(`${url}/callback`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (response.status === 200) acknowledged.push(paymentReference);
      } catch {
        // Killed before it answered: not acknowledged, so the platform would send it again.
      }
    };
    // Callbacks keep arriving; the process is killed once 100 were acknowledged, mid-flow.
    let next = 0;
    const senders = Array.from({ length: 16 }, async () => {
      while (running.exitCode === null && running.signalCode === null && next < 5_000) {
        await deliver(next++);
        if (acknowledged.length >= 100 && !running.killed) running.kill('SIGKILL');
      }
    });
    await Promise.all(senders);
    await exited;
    expect(acknowledged.length).toBeGreaterThanOrEqual(100);
    const stored = new Set(
      (
        opened(file)
          .prepare('select payment_reference as reference from pesakit_callback_inbox')
          .all() as Array<{ reference: string }>
      ).map((row) => row.reference),
    );
    expect(acknowledged.filter((reference) => !stored.has(reference))).toEqual([]);
  }, 60_000);
});
