import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { eventually } from '../callbacks/receiver-server.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';

// A merchant's own diagnostics_channel subscriber that throws ends its process: Node rethrows the
// exception on the next tick as uncaught, where pesakit cannot catch it. A crash in the middle of
// a payout leaves its record `initiating`; the reconciler treats one older than
// `initiatingGraceMs` as `unknown` and settles it by the platform's own payout history.

const root = fileURLToPath(new URL('../../', import.meta.url));
const script = fileURLToPath(new URL('./fixtures/throwing-subscriber-process.ts', import.meta.url));
const nextFile = temporarySqliteFiles('throwing-subscriber');
const children: ChildProcess[] = [];
let harness: Harness;

beforeEach(async () => {
  harness = await startHarness();
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount: 100_000,
  });
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await harness.close();
});

interface Merchant {
  /** Resolves once the process printed a line matching `pattern`. */
  printed(pattern: RegExp): Promise<void>;
  /** Sends one line to its stdin: `pay` or `check`. */
  call(line: 'pay' | 'check'): void;
  /** Its exit code and what it printed on stderr. */
  exited: Promise<{ code: number | null; stderr: string }>;
}

/** The merchant process, its subscriber throwing on requests to `throwsOn`, logged in. */
async function startMerchant(file: string, reference: string, throwsOn: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, harness.url, file, JSON.stringify(accounts), reference, throwsOn],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
  const merchant: Merchant = {
    printed: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => pattern.test(stdout) && resolve();
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          look();
        });
        look();
        void exited.then(({ code }) =>
          reject(new Error(`exited (${code}) before ${pattern}: ${stdout}${stderr}`)),
        );
      }),
    call: (line) => child.stdin.write(`${line}\n`),
    exited,
  };
  await merchant.printed(/READY/);
  return merchant;
}

const payouts = () => harness.sandbox.inspect.snapshot().disbursements;
const balance = () =>
  harness.sandbox.inspect.wallet('disbursement', accounts.disbursement.email)?.balance;

/** A forced pass of a reconciler in this process, on the file the dead process left. */
async function reconcile(file: string, reference: string) {
  const store = await SqliteReferenceStore.open(file);
  try {
    expect((await store.records.get(reference))?.status).toBe('initiating');
    // A settle window of 0 is warned about (a payout listed late could be failed); the sandbox
    // lists a payout before it answers.
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const reconciler = harness
      .client({ store })
      .createReconciler({ initiatingGraceMs: 1, settleWindowMs: 0 });
    const summary = await reconciler.runOnce({ force: true });
    return { summary, record: await store.records.get(reference) };
  } finally {
    await store.close();
  }
}

describe('a merchant subscriber that throws ends the process; the reconciler settles what it left', () => {
  it('died as the payout was about to be sent: initiating → failed, and the platform has no such payout', async () => {
    const file = nextFile();
    const merchant = await startMerchant(file, 'crash-unsent', '/disbursement/payment');
    merchant.call('pay');

    const { code, stderr } = await merchant.exited;
    expect(code).toBe(1);
    expect(stderr).toMatch(/the shop's metrics broke on POST/);
    expect({ payouts: payouts(), balance: balance() }).toEqual({ payouts: 0, balance: 100_000 });

    const { summary, record } = await reconcile(file, 'crash-unsent');
    expect(summary).toMatchObject({ checked: 1, failed: 1, errors: 0 });
    expect(record?.status).toBe('failed');
    expect({ payouts: payouts(), balance: balance() }).toEqual({ payouts: 0, balance: 100_000 });
  });

  it('died while the platform was paying it: initiating → success, never failed', async () => {
    const file = nextFile();
    const merchant = await startMerchant(file, 'crash-sent', '/disbursement/user');
    // The platform acts on the payout at once and answers 3 s later: the process dies between.
    await harness.control('faults', { latencyMs: 3_000 });
    merchant.call('pay');
    await merchant.printed(/SENDING/);
    await eventually(() => payouts() === 1, 5_000, 'the platform to take the payout');
    merchant.call('check');

    const { code, stderr } = await merchant.exited;
    expect(code).toBe(1);
    expect(stderr).toMatch(/the shop's metrics broke on GET/);
    await harness.control('faults', { latencyMs: 0 });

    const { summary, record } = await reconcile(file, 'crash-sent');
    expect(summary).toMatchObject({ checked: 1, settled: 1, errors: 0 });
    expect(record?.status).toBe('success');
    // Paid once: the amount and its charge (1 %, at least 100).
    expect({ payouts: payouts(), balance: balance() }).toEqual({ payouts: 1, balance: 79_800 });
  });
});
