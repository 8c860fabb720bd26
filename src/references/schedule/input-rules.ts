import { z } from 'zod';
import { StoreInputError } from '../../errors/store-input-error.js';
import { openStatuses, transactionStatuses } from '../transitions.js';
import type { TransactionStatus } from '../types.js';
import type { LeaseDueOptions, ReleaseLeaseOptions } from './types.js';

const dateSchema = z
  .date({ error: 'must be a Date' })
  .refine((value) => !Number.isNaN(value.getTime()), { error: 'must be a valid Date' });

const leaseDueSchema = z.object({
  limit: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(10_000, { error: 'must be at most 10000' }),
  leaseMs: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(1, { error: 'must be at least 1' }),
  force: z.boolean({ error: 'must be true or false' }).optional(),
  passStartedAt: dateSchema.optional(),
  statuses: z
    .array(z.enum(transactionStatuses as [TransactionStatus, ...TransactionStatus[]]))
    .min(1, { error: 'must name at least one status' })
    .optional(),
});

const releaseSchema = z.object({
  token: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }),
  nextCheckAt: dateSchema,
  checkedAt: dateSchema.optional(),
  observation: z.unknown().optional(),
  counted: z.boolean({ error: 'must be true or false' }).optional(),
});

function parse<T>(operation: string, schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.join('.') || 'options';
    errors[field] = [...(errors[field] ?? []), `${field} ${issue.message}`];
  }
  throw new StoreInputError(operation, errors);
}

export interface ParsedLeaseDue {
  limit: number;
  leaseMs: number;
  force: boolean;
  passStartedAt: Date | undefined;
  statuses: readonly TransactionStatus[];
}

export function parseLeaseDue(options: LeaseDueOptions): ParsedLeaseDue {
  const parsed = parse('leaseDue', leaseDueSchema, options);
  return {
    limit: parsed.limit,
    leaseMs: parsed.leaseMs,
    force: parsed.force ?? false,
    passStartedAt: parsed.passStartedAt,
    statuses: parsed.statuses ?? openStatuses,
  };
}

export function parseRelease(token: string, options: ReleaseLeaseOptions): ParsedRelease {
  const parsed = parse('releaseLease', releaseSchema, { ...options, token });
  let observation: unknown;
  if (options?.observation !== undefined) {
    try {
      observation = JSON.parse(JSON.stringify(options.observation) ?? 'null');
    } catch (error) {
      throw new StoreInputError('releaseLease', {
        observation: [`observation must be JSON-serialisable (${(error as Error).message})`],
      });
    }
  }
  return {
    token: parsed.token,
    nextCheckAt: parsed.nextCheckAt,
    checkedAt: parsed.checkedAt,
    observation,
    counted: parsed.counted ?? true,
  };
}

export interface ParsedRelease {
  token: string;
  nextCheckAt: Date;
  checkedAt: Date | undefined;
  /** JSON round-tripped; undefined when the check saw nothing to keep. */
  observation: unknown;
  counted: boolean;
}
