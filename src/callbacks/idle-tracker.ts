import type { ReferenceStore } from '../references/types.js';
import type { InboxWorker } from './inbox-worker.js';
import type { StatusPuller } from './status-puller.js';

/** What `onIdle()` needs to see of a receiver. */
export interface IdleSubject {
  readonly store: ReferenceStore;
  readonly now: () => Date;
  /** How often the store is polled while it holds work; capped at 100 ms. */
  readonly pollIntervalMs: number;
  readonly worker: InboxWorker;
  readonly puller: StatusPuller;
  /** The effect drain in flight, if any. */
  draining(): Promise<unknown> | undefined;
  /** Starts an effect drain when the receiver runs; does nothing otherwise. */
  drainEffects(): void;
}

/**
 * The receiver's `onIdle()`: counts the `receive()` calls not yet answered and every piece of
 * work started, and polls the store for work left to do now (see CallbackReceiver.onIdle).
 */
export class IdleTracker {
  readonly #subject: IdleSubject;
  /** `receive()` calls not yet answered. */
  #receiving = 0;
  /** Counts every `receive()` and effect drain started: a change means work happened. */
  #activity = 0;
  readonly #quiet = new Set<() => void>();

  constructor(subject: IdleSubject) {
    this.#subject = subject;
  }

  receiveStarted(): void {
    this.#receiving += 1;
    this.#activity += 1;
  }

  receiveEnded(): void {
    this.#receiving -= 1;
    if (this.#receiving === 0) for (const wake of this.#quiet) wake();
  }

  /** An effect drain started. */
  workStarted(): void {
    this.#activity += 1;
  }

  async onIdle(): Promise<void> {
    const { worker } = this.#subject;
    const pollMs = Math.min(this.#subject.pollIntervalMs, 100);
    for (;;) {
      await this.#localIdle();
      const activity = this.#activity + worker.claimed;
      const busy = await this.#storeBusy();
      if (!busy && this.#isLocalIdle() && activity === this.#activity + worker.claimed) {
        return;
      }
      if (busy === 'inbox') worker.nudge();
      if (busy === 'effects') this.#subject.drainEffects();
      if (busy) await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  #isLocalIdle(): boolean {
    const { worker, puller } = this.#subject;
    return (
      this.#receiving === 0 && this.#subject.draining() === undefined && worker.idle && puller.idle
    );
  }

  async #localIdle(): Promise<void> {
    const { worker, puller } = this.#subject;
    while (!this.#isLocalIdle()) {
      const answered =
        this.#receiving === 0
          ? undefined
          : new Promise<void>((resolve) => {
              const wake = () => {
                this.#quiet.delete(wake);
                resolve();
              };
              this.#quiet.add(wake);
            });
      await Promise.all([answered, this.#subject.draining(), worker.onIdle(), puller.onIdle()]);
    }
  }

  /** What the store still holds to do now, if anything. */
  async #storeBusy(): Promise<'inbox' | 'effects' | false> {
    const { store } = this.#subject;
    const now = this.#subject.now();
    const running = await store.listEffects('running', { limit: 1 });
    if (running.length > 0) return 'effects';
    const [due] = await store.listEffects('due', { limit: 1 });
    if (due?.effect.dueAt && due.effect.dueAt <= now) return 'effects';
    const backlog = await store.inbox.backlog();
    return backlog.due + backlog.processing > 0 ? 'inbox' : false;
  }
}
