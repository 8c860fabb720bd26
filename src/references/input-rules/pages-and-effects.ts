import { z } from 'zod';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import type { ClaimEffectsOptions, EffectKind, FailEffectOptions } from '../effects.js';
import { effectKindNames } from '../effects.js';
import type { EffectStatus } from '../record.js';
import { openStatuses } from '../transitions.js';
import type { ListOpenOptions } from '../types.js';
import {
  dateSchema,
  limitSchema,
  parse,
  referenceSchema,
  statusSchema,
  storedText,
} from './common.js';
import { productSchema } from './intent.js';

const claimEffectsSchema = z.object({
  leaseMs: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(1, { error: 'must be at least 1' })
    .max(86_400_000, { error: 'must be at most 86400000 (a day)' }),
  limit: limitSchema(1000).optional(),
  merchantReference: referenceSchema.optional(),
  handles: z.array(z.enum(effectKindNames, { error: `lists ${effectKindNames}` })).optional(),
});

const failEffectSchema = z.object({
  error: z.string({ error: 'must be a string' }),
  retryAt: dateSchema.nullable(),
});

const listPageSchema = z.object({
  limit: limitSchema(10_000).optional(),
  after: referenceSchema.optional(),
});

const listOpenSchema = z
  .object({
    statuses: z.array(statusSchema).min(1, { error: 'must name at least one status' }).optional(),
    product: productSchema.optional(),
    checkedBefore: dateSchema.optional(),
    limit: limitSchema(10_000).optional(),
    oldestFirst: z.boolean({ error: 'must be true or false' }).optional(),
    after: z
      .object(
        { createdAt: dateSchema, merchantReference: referenceSchema },
        { error: 'must be { createdAt, merchantReference } of the last record of a page' },
      )
      .optional(),
  })
  .refine((options) => options.after === undefined || options.oldestFirst === true, {
    error: 'pages records in creation order only: pass oldestFirst: true with it',
    path: ['after'],
  });

export function parseClaimEffects(options: ClaimEffectsOptions) {
  const parsed = parse('effects.claim', 'options', claimEffectsSchema, options ?? {});
  return {
    leaseMs: parsed.leaseMs,
    limit: parsed.limit ?? 50,
    merchantReference: parsed.merchantReference,
    handles: (parsed.handles ?? effectKindNames) as readonly EffectKind[],
  };
}

export type ParsedClaim = ReturnType<typeof parseClaimEffects>;

export function parseFailEffect(options: FailEffectOptions): FailEffectOptions {
  const parsed = parse('effects.fail', 'options', failEffectSchema, options ?? {});
  return { error: storedText(parsed.error), retryAt: parsed.retryAt };
}

export function parseListPage(
  operation: string,
  options: { limit?: number; after?: string } = {},
): { limit: number; after: string | undefined } {
  const parsed = parse(operation, 'options', listPageSchema, options);
  return { limit: parsed.limit ?? 100, after: parsed.after };
}

export function parseEffectKinds(handles: readonly EffectKind[] | undefined) {
  const schema = claimEffectsSchema.pick({ handles: true });
  return parse('effects.list', 'options', schema, { handles }).handles ?? effectKindNames;
}

export function parseListOpen(options: ListOpenOptions = {}) {
  const parsed = parse('records.list', 'options', listOpenSchema, options);
  return {
    statuses: (parsed.statuses ?? openStatuses) as readonly TransactionStatus[],
    product: parsed.product,
    checkedBefore: parsed.checkedBefore,
    limit: parsed.limit ?? 100,
    oldestFirst: parsed.oldestFirst ?? false,
    after: parsed.after,
  };
}

const listedEffectStatuses = z.enum(['due', 'running', 'dead'], {
  error: 'must be one of due, running, dead',
});

export function parseEffectStatus(status: unknown): Exclude<EffectStatus, 'none' | 'done'> {
  return parse('effects.list', 'status', listedEffectStatuses, status);
}
