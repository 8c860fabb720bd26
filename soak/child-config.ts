import type { StoreKind } from './options.js';

/** What a merchant or reconciler process is told at start (as JSON in SOAK_CHILD). */
export interface ChildConfig {
  /** `merchant-1#3`: the process's name and which start of it this is. */
  instance: string;
  store: StoreKind;
  /** The SQLite file, or the PostgreSQL connection string. */
  location: string;
  sandboxUrl: string;
  /** The merchant's port (fixed across restarts: callback URLs name it). */
  port: number;
  /** The SDK's timeout: `late_answer` holds answers just past it. */
  timeoutMs: number;
  /** A reconciler: check every open record each pass, not only those due. */
  drain: boolean;
}

export const childConfigVariable = 'SOAK_CHILD';

export function readChildConfig(): ChildConfig {
  const text = process.env[childConfigVariable];
  if (!text) throw new Error(`${childConfigVariable} is not set: this file is started by the soak`);
  return JSON.parse(text) as ChildConfig;
}
