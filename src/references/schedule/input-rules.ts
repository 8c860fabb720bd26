import { z } from 'zod';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import { dateSchema, limitSchema, parse, toJsonText } from '../input-rules/common.js';
import { openStatuses } from '../transitions.js';
import type { LeaseDueOptions, ReleaseLeaseOptions } from './types.js';

const leaseDueSchema = z.object({
  limit: limitSchema(10_000),
  leaseMs: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(1, { error: 'must be at least 1' }),
  force: z.boolean({ error: 'must be true or false' }).optional(),
  passStartedAt: dateSchema.optional(),
  statuses: z
    // A lease is the reconciler's: a record no longer open is never due.
    .array(
      z.enum(openStatuses as [TransactionStatus, ...TransactionStatus[]], {
        error: `must be open statuses (${openStatuses.join(', ')})`,
      }),
    )
    .min(1, { error: 'must name at least one status' })
    .optional(),
  observations: z.boolean({ error: 'must be true or false' }).optional(),
  initiatingBefore: dateSchema.optional(),
});

const releaseSchema = z.object({
  token: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
  nextCheckAt: dateSchema,
  checkedAt: dateSchema.optional(),
  observation: z.unknown().optional(),
  counted: z.boolean({ error: 'must be true or false' }).optional(),
});

export type ParsedLeaseDue = ReturnType<typeof parseLeaseDue>;

export function parseLeaseDue(options: LeaseDueOptions) {
  const parsed = parse('schedule.lease', 'options', leaseDueSchema, options ?? {});
  return {
    limit: parsed.limit,
    leaseMs: parsed.leaseMs,
    force: parsed.force ?? false,
    passStartedAt: parsed.passStartedAt,
    statuses: (parsed.statuses ?? openStatuses) as readonly TransactionStatus[],
    observations: parsed.observations ?? true,
    initiatingBefore: parsed.initiatingBefore,
  };
}

export function parseRelease(token: string, options: ReleaseLeaseOptions): ParsedRelease {
  const operation = 'schedule.release';
  const parsed = parse(operation, 'options', releaseSchema, { ...options, token });
  // Serialised once, here: the store appends this text as it is.
  const observationJson =
    options?.observation === undefined
      ? undefined
      : toJsonText(operation, 'observation', options.observation);
  return {
    token,
    nextCheckAt: parsed.nextCheckAt,
    checkedAt: parsed.checkedAt,
    observationJson,
    counted: parsed.counted ?? true,
  };
}

export interface ParsedRelease {
  token: string;
  nextCheckAt: Date;
  checkedAt: Date | undefined;
  observationJson: string | undefined;
  counted: boolean;
}
