import { z } from 'zod';
import { StoreInputError } from '../../errors/store-input-error.js';
import { dateSchema, limitSchema, parse } from '../input-rules/common.js';
import { parseMerchantReference } from '../input-rules.js';
import { openStatuses, transactionStatuses } from '../transitions.js';
import type { TransactionStatus } from '../types.js';
import type { LeaseDueOptions, LeaseRelease, ReleaseLeaseOptions } from './types.js';

const leaseDueSchema = z.object({
  limit: limitSchema(10_000),
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

export interface ParsedLeaseDue {
  limit: number;
  leaseMs: number;
  force: boolean;
  passStartedAt: Date | undefined;
  statuses: readonly TransactionStatus[];
  observations: boolean;
  initiatingBefore: Date | undefined;
}

export function parseLeaseDue(options: LeaseDueOptions): ParsedLeaseDue {
  const parsed = parse('leaseDue', 'options', leaseDueSchema, options ?? {});
  return {
    limit: parsed.limit,
    leaseMs: parsed.leaseMs,
    force: parsed.force ?? false,
    passStartedAt: parsed.passStartedAt,
    statuses: parsed.statuses ?? openStatuses,
    observations: parsed.observations ?? true,
    initiatingBefore: parsed.initiatingBefore,
  };
}

export function parseRelease(
  token: string,
  options: ReleaseLeaseOptions,
  operation = 'releaseLease',
): ParsedRelease {
  const parsed = parse(operation, 'options', releaseSchema, { ...options, token });
  let observationJson: string | undefined;
  if (options?.observation !== undefined) {
    try {
      // Serialised once, here: the store appends this text as it is (a function or a symbol,
      // which JSON has no word for, is kept as null).
      observationJson = JSON.stringify(options.observation) ?? 'null';
    } catch (error) {
      throw new StoreInputError(operation, {
        observation: [`observation must be JSON-serialisable (${(error as Error).message})`],
      });
    }
  }
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
  /** The observation as JSON text; undefined when the check saw nothing to keep. */
  observationJson: string | undefined;
  counted: boolean;
}

/** One release of a batch, checked: its record and what {@link parseRelease} gives. */
export interface ParsedLeaseRelease extends ParsedRelease {
  merchantReference: string;
}

/**
 * Checks every release of a batch before anything is written: a bad one rejects the whole
 * batch, naming it by position (`releases[3].nextCheckAt must be a Date`). A record named twice
 * is refused too: one statement cannot end the same lease twice, and which write should win
 * would be a guess.
 */
export function parseReleases(releases: readonly LeaseRelease[]): ParsedLeaseRelease[] {
  const operation = 'releaseLeases';
  if (!Array.isArray(releases)) {
    throw new StoreInputError(operation, { releases: ['releases must be an array'] });
  }
  const seen = new Map<string, number>();
  return releases.map((release, index) => {
    const field = `releases[${index}]`;
    try {
      if (typeof release !== 'object' || release === null) {
        throw new StoreInputError(operation, { [field]: [`${field} must be an object`] });
      }
      const merchantReference = parseMerchantReference(operation, release.merchantReference);
      const earlier = seen.get(merchantReference);
      if (earlier !== undefined) {
        throw new StoreInputError(operation, {
          merchantReference: [
            `merchantReference ${merchantReference} is also releases[${earlier}]; release each lease once per call`,
          ],
        });
      }
      seen.set(merchantReference, index);
      return { merchantReference, ...parseRelease(release.token, release, operation) };
    } catch (error) {
      throw prefixed(error, field);
    }
  });
}

/** The same error with every field named inside the batch (`token` → `releases[2].token`). */
function prefixed(error: unknown, field: string): unknown {
  if (!(error instanceof StoreInputError) || error.operation !== 'releaseLeases') return error;
  if (Object.keys(error.errors).every((name) => name.startsWith('releases'))) return error;
  const errors: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(error.errors)) {
    errors[`${field}.${name}`] = (messages ?? []).map((message) =>
      message.startsWith(name) ? `${field}.${message}` : `${field}.${name}: ${message}`,
    );
  }
  return new StoreInputError('releaseLeases', errors);
}
