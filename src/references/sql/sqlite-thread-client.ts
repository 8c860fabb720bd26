import { Worker } from 'node:worker_threads';
import type { SqliteThreadConnection } from './sqlite-thread-connection.js';

/** An error as a thread sends it (`described` in sqlite-thread-source.ts). */
export interface DescribedError {
  name: string;
  message: string;
  code?: string;
}

/** What a thread answers to a call: the call's id, and its error when SQLite refused. */
export interface ThreadAnswer {
  id: number;
  error?: DescribedError;
}

/**
 * The thread could not start, or has gone (crashed, killed, exited) before it answered: the
 * call was not answered, so its caller must not take it as done — it falls back or reports.
 */
export class SqliteThreadGoneError extends Error {
  override name = 'SqliteThreadGoneError' as const;
}

/** Whether `error` says the thread is gone (not that SQLite refused the call). */
export function isSqliteThreadGoneError(error: unknown): error is SqliteThreadGoneError {
  return error instanceof SqliteThreadGoneError;
}

/** The error a thread described, rebuilt (name, message and SQLite's `code`). */
export function errorFrom(described: DescribedError): Error {
  const error = new Error(described.message) as Error & { code?: string };
  error.name = described.name;
  if (described.code !== undefined) error.code = described.code;
  return error;
}

export interface SqliteThreadOptions {
  /** How messages name it: "The <name> thread exited (1)." */
  name: string;
  /** The thread's code: sqliteThreadSource(...). */
  source: string;
  /** Its connection, and whatever else its code reads from `workerData`. */
  workerData: SqliteThreadConnection & Record<string, unknown>;
  /**
   * The thread went without being closed (see {@link SqliteThreadGoneError}); every call that
   * was waiting has been refused already.
   */
  gone?: (error: SqliteThreadGoneError) => void;
}

interface Pending<Answer> {
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

/**
 * One worker thread of a SQLite store, with its own connection to the store's file, and the
 * lifecycle every such thread needs:
 * - it is started by the constructor (which throws what `new Worker` threw), and never keeps a
 *   process alive while idle: referenced only while a call is waiting for its answer;
 * - `call` posts a message with an id and resolves with the thread's answer to it (rejects with
 *   the thread's error when it sent one);
 * - when it goes without being closed, every waiting call is refused with a
 *   {@link SqliteThreadGoneError} and `gone` is told: the owner decides what comes next (start
 *   another, or work on the store's connection);
 * - `close()` waits for the calls in flight, then ends the thread and waits for its exit.
 */
export class SqliteThreadClient<Answer extends ThreadAnswer> {
  readonly #name: string;
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  readonly #gone: ((error: SqliteThreadGoneError) => void) | undefined;
  #state: 'running' | 'gone' | 'closed' = 'running';
  #nextId = 0;
  readonly #pending = new Map<number, Pending<Answer>>();
  #drained: (() => void) | undefined;
  /** It has sent its error or exited: nothing posted to it will be answered. */
  #ended = false;

  constructor(options: SqliteThreadOptions) {
    this.#name = options.name;
    this.#gone = options.gone;
    const worker = new Worker(options.source, { eval: true, workerData: options.workerData });
    this.#worker = worker;
    worker.unref();
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (answer: Answer) => this.#answered(answer));
    worker.on('error', (error) => this.#went(error.message, error));
    worker.on('exit', (code) => this.#went(`The ${this.#name} thread exited (${code}).`));
  }

  /** Whether calls still go to the thread (false once it has gone, or after close). */
  get running(): boolean {
    return this.#state === 'running';
  }

  /** Posts `message` with an id of its own; resolves with the thread's answer to it. */
  call(message: object): Promise<Answer> {
    return new Promise((resolve, reject) => {
      if (!this.running) {
        reject(new SqliteThreadGoneError(`The ${this.#name} thread is not running.`));
        return;
      }
      const id = this.#nextId++;
      this.#pending.set(id, {
        resolve: (answer) => (answer.error ? reject(errorFrom(answer.error)) : resolve(answer)),
        reject,
      });
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ id, ...message });
    });
  }

  /** Posts `message` and expects no answer (a setting, a poke); nothing once it has gone. */
  post(message: object): void {
    if (this.#state === 'running') this.#worker.postMessage(message);
  }

  /** Waits for the calls in flight, then ends the thread (waiting for its exit). */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    if (this.#pending.size > 0) {
      await new Promise<void>((resolve) => {
        this.#drained = resolve;
      });
    }
    if (this.#ended) return;
    // Referenced until it has gone: an idle thread is unref'd, and a program whose last work is
    // `await store.close()` would otherwise end with this promise unsettled — Node exits with
    // code 13 and nothing after the `await` runs.
    this.#worker.ref();
    this.#worker.postMessage({ close: true });
    await this.#exited;
  }

  #answered(answer: Answer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (this.#pending.size === 0) {
      this.#worker.unref();
      this.#drained?.();
    }
    pending.resolve(answer);
  }

  /** The thread has ended (an error, then its exit; or an exit): nobody waiting was answered. */
  #went(message: string, cause?: Error): void {
    if (this.#ended) return;
    this.#ended = true;
    const unasked = this.#state === 'running';
    if (unasked) this.#state = 'gone';
    const error = new SqliteThreadGoneError(message, cause ? { cause } : undefined);
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const pending of waiting) pending.reject(error);
    this.#drained?.();
    // The exit that close() asked for is no news to the owner.
    if (unasked) this.#gone?.(error);
  }
}
