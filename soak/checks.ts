// Everything the soak checks at the end: the verifier against the sandbox's truth (with the
// merchant's own table as `effectsOf`), handler runs, complete logs, and no process that died
// on its own.
import type { ReferenceStore } from 'pesakit';
import { type VerifyReport, verifyAgainstSandbox } from 'pesakit/testing';
import type { Fleet } from './fleet.js';
import { checkHandlerOnce, type HandlerOnce } from './handler-once.js';
import type { HandlerRuns } from './handler-runs.js';
import type { SandboxProcess } from './sandbox-process.js';

export interface SoakCheck {
  title: string;
  summary: string;
  violations: Array<{ reference: string; message: string }>;
}

export interface SoakChecks {
  verify: VerifyReport;
  own: SoakCheck[];
  ok: boolean;
}

/** The logs the soak and the verifier read: one that dropped entries would hide violations. */
const logs = ['requests', 'deliveries', 'transactions', 'ledger', 'chaos'] as const;

export async function runChecks(
  store: ReferenceStore,
  sandbox: SandboxProcess,
  runs: HandlerRuns,
  fleet: Fleet,
): Promise<SoakChecks> {
  const handlerOnce = checkHandlerOnce(await runs.all(), fleet.deaths);
  const verify = await verifyAgainstSandbox({
    store,
    sandbox: sandbox.url,
    effectsOf: (reference) => handlerOnce.effective.get(reference) ?? 0,
  });
  const own = [handlerCheck(handlerOnce), await logsComplete(sandbox), crashes(fleet)];
  return { verify, own, ok: verify.ok && own.every((check) => check.violations.length === 0) };
}

function handlerCheck(result: HandlerOnce): SoakCheck {
  const runs = [...result.effective.values()].reduce((sum, n) => sum + n, 0) + result.excused;
  return {
    title: 'no handler ran twice unless its process died between run and completion',
    summary: `${runs} runs for ${result.effective.size} records, ${result.excused} cut short by a death, ${result.violations.length} ran twice`,
    violations: result.violations,
  };
}

async function logsComplete(sandbox: SandboxProcess): Promise<SoakCheck> {
  const violations: SoakCheck['violations'] = [];
  const totals: string[] = [];
  for (const log of logs) {
    const page = await sandbox.control<{ total: number; dropped: number }>(
      `${log}?after=0&limit=1`,
    );
    totals.push(`${log} ${page.total}`);
    if (page.dropped > 0) {
      violations.push({ reference: `(${log} log)`, message: `dropped ${page.dropped} entries` });
    }
  }
  return { title: 'every log read whole', summary: totals.join(', '), violations };
}

function crashes(fleet: Fleet): SoakCheck {
  const crashed = fleet.deaths.filter((death) => death.how === 'crashed');
  const killed = fleet.deaths.length - crashed.length;
  return {
    title: 'no process died but by the soak’s kill',
    summary: `${killed} killed, ${crashed.length} exited on their own`,
    violations: crashed.map((death) => ({
      reference: death.instance,
      message: `exited on its own at ${new Date(death.at).toISOString()} (see processes.log)`,
    })),
  };
}
