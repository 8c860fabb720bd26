import { z } from 'zod';
import { ConfigurationError } from '../../errors/configuration-error.js';

/**
 * The longest gathering window accepted: the window is added to an acknowledgement's latency
 * under load, and the platform waits for that answer.
 */
export const maxGatherMs = 50;

/**
 * The SQLite inbox's default gathering window, in milliseconds (see SqliteGroupAppender):
 * chosen by measurement (docs/benchmarks.md, callback-ack, stop 16).
 */
export const defaultGatherMs = 1;

/** The `inbox` option of `SqliteReferenceStore.open`. */
export const sqliteInboxOptionsSchema = z
  .object({
    /**
     * How long a small group of callbacks may wait for more before its commit, in milliseconds,
     * counted from its first callback; only while callbacks are flowing (a lone callback is
     * committed at once). `0` turns the window off.
     */
    gatherMs: z.number().finite().min(0).max(maxGatherMs).optional(),
  })
  .strict();

export type SqliteInboxOptions = z.infer<typeof sqliteInboxOptionsSchema>;

/** The options as the inbox uses them; a bad value is a ConfigurationError naming it. */
export function parseSqliteInboxOptions(options: unknown): { gatherMs: number } {
  const parsed = sqliteInboxOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['inbox', ...(issue?.path ?? []).map(String)].join('.');
    throw new ConfigurationError(
      path,
      `${path}: ${issue?.message ?? 'invalid'} (the inbox option is { gatherMs?: number from 0 to ${maxGatherMs} }).`,
    );
  }
  return { gatherMs: parsed.data.gatherMs ?? defaultGatherMs };
}
