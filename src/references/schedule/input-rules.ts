import { z } from 'zod';
import { StoreInputError } from '../../errors/store-input-error.js';
import { dateSchema, limitSchema, parse, toJsonText } from '../input-rules/common.js';
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

export type ParsedLeaseDue = ReturnType<typeof parseLeaseDue>;

export function parseLeaseDue(options: LeaseDueOptions) {
  const parsed = parse('leaseDue', 'options', leaseDueSchema, options ?? {});
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

export function parseRelease(
  token: string,
  options: ReleaseLeaseOptions,
  operation = 'releaseLease',
): ParsedRelease {
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

export interface ParsedLeaseRelease extends ParsedRelease {
  merchantReference: string;
}

/**
 * A bad release rejects the whole batch, named by position; so does a record named twice (which
 * write should win would be a guess).
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

/** `token` → `releases[2].token`. */
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
