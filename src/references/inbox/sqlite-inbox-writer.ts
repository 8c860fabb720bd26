import type Database from 'better-sqlite3';
import type { InboxRow } from '../sql/inbox-table.js';
import { checkpointerOf, type SqliteCheckpointer } from '../sql/sqlite-checkpointer.js';
import {
  type DescribedError,
  errorFrom,
  SqliteThreadClient,
  type ThreadAnswer,
} from '../sql/sqlite-thread-client.js';
import {
  type SqliteThreadConnection,
  sqliteThreadConnection,
} from '../sql/sqlite-thread-connection.js';
import {
  countDuplicateSql,
  type GroupWrite,
  insertSql,
  type RowOutcome,
} from './sqlite-group-write.js';
import { writerThreadSource } from './sqlite-inbox-writer-source.js';

/**
 * Checkpoints run on the store file's one checkpointer thread (sql/sqlite-checkpointer.ts),
 * poked after every `rows` callbacks committed (each writes 4–8 pages of WAL: about SQLite's own
 * cadence of 1,000 pages). The writer connection's own automatic checkpoint follows the
 * checkpointer's `pages()`: the backstop while it runs, SQLite's default (`defaultPages`) when
 * there is none (a handle the store did not open) or it is gone.
 */
const pokeEvery = { rows: 200, defaultPages: 1000 };

type ThreadOutcome = null | { row: InboxRow } | { error: DescribedError };

/** The writer connection's own settings, as it reports them. */
export interface WriterSettings {
  /** Pages of WAL past which a commit checkpoints itself: the backstop while the checkpointer runs. */
  walAutocheckpoint: number;
  synchronous: number;
  busyTimeout: number;
}

/** What the thread answers to one message: a group's outcomes, or its settings. */
interface WriterAnswer extends ThreadAnswer {
  outcomes?: ThreadOutcome[];
  settings?: WriterSettings;
}

/**
 * Writes the SQLite inbox's groups on a worker thread with its own connection to the same file
 * (WAL lets it write while the store's connection reads). The commit and its fsync then run off
 * the event loop: requests keep being parsed while a group is made durable, instead of all
 * waiting behind a synchronous better-sqlite3 transaction. A group still resolves only after
 * the commit that holds it, and dedup is still the unique `dedup_key` inside that commit.
 *
 * The thread starts with the first write (a store that never receives a callback starts none)
 * and keeps the process alive only while a write is in flight. Should it go (it could not open
 * the file, or crashed), the writes waiting on it are refused — nobody was told their callback
 * is stored — and the next write starts a new one. `close()` ends it.
 */
export class SqliteInboxWriter {
  readonly #connection: SqliteThreadConnection;
  readonly #checkpointer: SqliteCheckpointer | undefined;
  #unsubscribe: (() => void) | undefined;
  #thread: SqliteThreadClient<WriterAnswer> | undefined;
  /** Callbacks committed since the checkpointer was last poked. */
  #rowsSincePoke = 0;
  #closed = false;

  /** Use {@link sqliteInboxWriter}, which decides whether a thread can share the database. */
  constructor(connection: SqliteThreadConnection, checkpointer?: SqliteCheckpointer) {
    this.#connection = connection;
    this.#checkpointer = checkpointer;
  }

  readonly write: GroupWrite = async (inserts) => {
    const answer = await this.#started().call({ inserts });
    this.#committed(inserts.length);
    return (answer.outcomes ?? []).map(toOutcome);
  };

  /**
   * What the thread's connection is set to (starting the thread if need be). Not used on any
   * path of the store: it lets a test see that the writer keeps its backstop
   * `wal_autocheckpoint` (a connection with it off would let the WAL grow without bound should
   * the checkpointer fall behind).
   */
  async settings(): Promise<WriterSettings> {
    const { settings } = await this.#started().call({ settings: true });
    if (!settings) throw new Error('The SQLite inbox writer did not report its settings.');
    return settings;
  }

  /** Waits for nothing: callers finish their writes first (SqliteGroupAppender.close). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    const thread = this.#thread;
    this.#thread = undefined;
    await thread?.close();
  }

  #started(): SqliteThreadClient<WriterAnswer> {
    if (this.#closed) throw new Error('The SQLite inbox writer is closed; open the store again.');
    if (this.#thread?.running) return this.#thread;
    // Callbacks are arriving: the file's checkpointer runs from now on, if it can.
    this.#checkpointer?.start();
    const thread = new SqliteThreadClient<WriterAnswer>({
      name: 'SQLite inbox writer',
      source: writerThreadSource,
      workerData: {
        ...this.#connection,
        insertSql,
        countDuplicateSql,
        walAutocheckpoint: this.#checkpointer?.pages() ?? pokeEvery.defaultPages,
      },
    });
    this.#unsubscribe?.();
    this.#unsubscribe = this.#checkpointer?.onPages((pages) =>
      thread.post({ walAutocheckpoint: pages }),
    );
    this.#thread = thread;
    return thread;
  }

  /** A group was answered: every `rows` callbacks, a few MiB of WAL for the checkpointer. */
  #committed(rows: number): void {
    if (!this.#checkpointer) return;
    this.#rowsSincePoke += rows;
    if (this.#rowsSincePoke < pokeEvery.rows) return;
    this.#rowsSincePoke = 0;
    this.#checkpointer.poke();
  }
}

/**
 * The writer for `database`: a thread of its own when another connection can share the file
 * (a file in WAL mode, opened for writing), otherwise `undefined` (the caller writes in-thread).
 */
export function sqliteInboxWriter(database: Database.Database): SqliteInboxWriter | undefined {
  const connection = sqliteThreadConnection(database);
  return connection && new SqliteInboxWriter(connection, checkpointerOf(database));
}

function toOutcome(outcome: ThreadOutcome): RowOutcome {
  if (outcome === null) return { kind: 'inserted' };
  if ('row' in outcome) return { kind: 'duplicate', row: outcome.row };
  return { kind: 'failed', error: errorFrom(outcome.error) };
}
