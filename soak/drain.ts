// The drain: chaos paused, late answers landed, every process up, the reconcilers checking every
// open record each pass, until nothing open is one the platform holds final and every settled
// record's handler completed — or the bound passes (the checks then say what is left).
import type { ReferenceStore } from 'pesakit';
import { verifyAgainstSandbox } from 'pesakit/testing';
import type { Fleet } from './fleet.js';
import type { SandboxProcess } from './sandbox-process.js';

export interface Drained {
  ms: number;
  converged: boolean;
}

export async function drain(
  sandbox: SandboxProcess,
  fleet: Fleet,
  store: ReferenceStore,
  options: { lateMs: number; boundMs: number },
): Promise<Drained> {
  const started = Date.now();
  await sandbox.control('chaos', { paused: true });
  for (const name of fleet.names) if (!fleet.isUp(name)) await fleet.start(name);
  await new Promise((resolve) => setTimeout(resolve, options.lateMs + 1000));
  fleet.drain();
  for (;;) {
    const report = await verifyAgainstSandbox({ store, sandbox: sandbox.url });
    const settled = report.checks
      .filter((check) => check.id === 'open_not_final' || check.id === 'effects_completed')
      .every((check) => check.ok);
    if (settled) return { ms: Date.now() - started, converged: true };
    if (Date.now() - started > options.boundMs)
      return { ms: Date.now() - started, converged: false };
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
