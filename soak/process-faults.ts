// The faults outside the sandbox, drawn from the seed and fired as the driver reaches a payment:
// SIGKILL of a merchant or reconciler process (started again after a seeded pause), and for
// PostgreSQL an immediate restart of the database server.
import type { Fleet } from './fleet.js';
import type { PostgresCluster } from './postgres-cluster.js';
import { seeded } from './seeded.js';

interface Event {
  at: number;
  fire(): Promise<void>;
}

export class ProcessFaults {
  readonly counts = { kill_merchant: 0, kill_reconciler: 0, restart_database: 0 };
  readonly #events: Event[] = [];
  readonly #fired: Array<Promise<void>> = [];

  constructor(seed: number, singles: number, fleet: Fleet, cluster: PostgresCluster | null) {
    const draw = seeded(seed, 'process-faults');
    const kills = Math.max(4, Math.round(singles / 100));
    for (let i = 0; i < kills; i += 1) {
      const target = draw.pick(fleet.names);
      const downMs = draw.between(200, 2000);
      const key = target.startsWith('merchant') ? 'kill_merchant' : 'kill_reconciler';
      this.#events.push({
        at: draw.between(Math.floor(singles * 0.05), Math.floor(singles * 0.95)),
        fire: async () => {
          if (!fleet.isUp(target)) return;
          this.counts[key] += 1;
          await fleet.kill(target);
          await new Promise((resolve) => setTimeout(resolve, downMs));
          await fleet.start(target);
        },
      });
    }
    if (cluster) {
      const restarts = Math.max(1, Math.round(singles / 3000));
      for (let i = 0; i < restarts; i += 1) {
        this.#events.push({
          at: draw.between(Math.floor(singles * 0.2), Math.floor(singles * 0.8)),
          fire: async () => {
            this.counts.restart_database += 1;
            await cluster.restart();
          },
        });
      }
    }
    this.#events.sort((a, b) => a.at - b.at);
  }

  /** Fires every event due by payment `n` (not waited for: the driver goes on). */
  reached(n: number): void {
    while (this.#events.length > 0 && this.#events[0]!.at <= n) {
      this.#fired.push(this.#events.shift()!.fire());
    }
  }

  /** Waits for every fired fault to end (each process up again). */
  async settled(): Promise<void> {
    await Promise.all(this.#fired);
  }
}
