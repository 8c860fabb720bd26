// "No handler ran twice unless its process died between the run and its completion." A handler
// runs at least once until it completes; a run counts as such a death when the process that ran
// it died (SIGKILL, or a crash) within `completionMs` after it: the store marks a run complete
// right after the handler returns, so a later death left it complete.
import type { Death } from './fleet.js';
import type { HandlerRun } from './handler-runs.js';

export interface HandlerOnceViolation {
  reference: string;
  message: string;
}

export interface HandlerOnce {
  /** Runs per merchant reference, not counting runs cut short by their process's death. */
  effective: Map<string, number>;
  /** Runs excused by a death. */
  excused: number;
  violations: HandlerOnceViolation[];
}

const completionMs = 10_000;
const signalMs = 1000;

export function checkHandlerOnce(
  runs: readonly HandlerRun[],
  deaths: readonly Death[],
): HandlerOnce {
  const diedAt = new Map(deaths.map((death) => [death.instance, death.at]));
  const byReference = new Map<string, HandlerRun[]>();
  for (const run of runs) {
    const list = byReference.get(run.merchantReference) ?? [];
    list.push(run);
    byReference.set(run.merchantReference, list);
  }
  const effective = new Map<string, number>();
  const violations: HandlerOnceViolation[] = [];
  let excused = 0;
  for (const [reference, list] of byReference) {
    // Every run but the last may have been cut short; the last is the one that completed.
    const cut = list.slice(0, -1).filter((run) => {
      const died = diedAt.get(run.instance);
      // A death is dated when SIGKILL is sent; the process may run a few ms more until it lands.
      return died !== undefined && run.at - died <= signalMs && died - run.at <= completionMs;
    });
    excused += cut.length;
    effective.set(reference, list.length - cut.length);
    const handlers = new Set(list.map((run) => run.handler));
    if (list.length - cut.length > 1) {
      const what = list.map((run) => `${run.handler} in ${run.instance}`).join(', ');
      violations.push({ reference, message: `ran ${list.length} times: ${what}` });
    } else if (handlers.size > 1) {
      violations.push({ reference, message: `ran opposite handlers: ${[...handlers].join(', ')}` });
    }
  }
  return { effective, excused, violations };
}
