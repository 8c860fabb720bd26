import { z } from 'zod';
import { StoreInputError } from '../../errors/store-input-error.js';
import {
  dateSchema,
  limitSchema,
  notDead,
  parse,
  storedText,
  withoutNul,
} from '../input-rules/common.js';
import type {
  InboxAppend,
  InboxClaimOptions,
  InboxFinish,
  InboxListOptions,
  InboxPruneOptions,
} from './types.js';
import { inboxEntryStatuses } from './types.js';

/** The receiver refuses a longer request target with 414, a longer claimed reference with 422. */
export const maxInboxUrlLength = 8192;
export const maxClaimedReferenceLength = 255;

const text = (max: number) =>
  withoutNul(
    z
      .string({ error: `must be a non-empty string of at most ${max} characters` })
      .min(1, { error: 'must not be empty' })
      .max(max, { error: `must be at most ${max} characters` }),
  );

const word = text(200);

const object = <T extends z.ZodRawShape>(shape: T, what: string) =>
  z.object(shape, { error: `must be an object ${what}` });

const appendSchema = object(
  {
    dedupKey: text(200),
    method: text(16),
    url: text(maxInboxUrlLength),
    body: withoutNul(z.string({ error: 'must be the raw body as a string' })),
    claim: z.looseObject(
      {
        paymentReference: text(maxClaimedReferenceLength),
        status: z.enum(['success', 'failed'], { error: "must be 'success' or 'failed'" }),
      },
      { error: 'must be the parsed callback claim' },
    ),
    receivedAt: dateSchema.optional(),
    dueAt: dateSchema.optional(),
  },
  '(what the receiver appends)',
);

const claimSchema = object(
  { leaseMs: limitSchema(Number.MAX_SAFE_INTEGER), limit: limitSchema(1000).optional() },
  '{ leaseMs, limit? }',
);

const listSchema = object(
  {
    limit: limitSchema(10_000).optional(),
    outcome: word.optional(),
    paymentReference: text(maxClaimedReferenceLength).optional(),
    status: z
      .enum(inboxEntryStatuses, {
        error: `must be one of ${inboxEntryStatuses.join(', ')}`,
      })
      .optional(),
  },
  '{ status?, outcome?, paymentReference?, limit? }',
);

const finishSchema = z.discriminatedUnion(
  'status',
  [
    object({ status: z.literal('done'), outcome: word }, "{ status: 'done', outcome }"),
    object(
      { status: z.literal('pending'), dueAt: dateSchema, error: z.unknown().optional() },
      "{ status: 'pending', dueAt, error? }",
    ),
    object({ status: z.literal('dead'), error: z.unknown() }, "{ status: 'dead', error }"),
  ],
  { error: "must be { status: 'done' | 'pending' | 'dead', … }" },
);

const pruneSchema = object(
  {
    olderThan: dateSchema,
    limit: limitSchema(1_000_000).optional(),
    outcomes: z
      .array(z.string({ error: 'must list outcome strings' }), { error: 'must be an array' })
      .min(1, { error: 'must list at least one outcome' })
      .max(20, { error: 'must list at most 20 outcomes' })
      .optional(),
  },
  '{ olderThan, limit?, outcomes? }',
);

export function parseAppend(input: InboxAppend): InboxAppend {
  parse('inbox.append', 'entry', appendSchema, input);
  return input;
}

export function parseClaimOptions(options: InboxClaimOptions) {
  const { leaseMs, limit = 10 } = parse('inbox.claim', 'options', claimSchema, options);
  return { leaseMs, limit };
}

export function parseListOptions(options: InboxListOptions = {}) {
  parse('inbox.list', 'options', listSchema, options);
  return { ...options, limit: options.limit ?? 100 };
}

export function parseEntryId(operation: string, id: unknown): string {
  return parse(operation, 'id', word, id);
}

/** A claim's end, checked: the error kept for a person as stored text. */
export function parseFinish(id: unknown, token: unknown, finish: InboxFinish): InboxFinish {
  parse('inbox.finish', 'id', word, id);
  parse('inbox.finish', 'token', word, token);
  const parsed = parse('inbox.finish', 'finish', finishSchema, finish);
  if (parsed.status === 'done') return parsed;
  // A dead letter must say why (a person reads it); a retry may leave its error out.
  if (parsed.status === 'dead') {
    return { status: 'dead', error: storedError('inbox.finish', parsed.error) };
  }
  const error = parsed.error === undefined ? undefined : storedError('inbox.finish', parsed.error);
  return { status: 'pending', dueAt: parsed.dueAt, ...(error !== undefined && { error }) };
}

/** Why `requeue` refused: no such entry, or one that is not dead. */
export function notRequeued(id: string, status: string | undefined): StoreInputError {
  return status === undefined
    ? new StoreInputError('inbox.requeue', { id: [`id ${id} names no stored callback.`] })
    : notDead('inbox.requeue', 'status', status);
}

export function storedError(operation: string, error: unknown): string {
  if (typeof error !== 'string') {
    throw new StoreInputError(operation, {
      error: ['The error must be a string (what went wrong, for a person).'],
    });
  }
  return storedText(error);
}

/** A cut-off later than now deletes nothing more: a mistake, refused before anything is deleted. */
export function parsePruneOptions(options: InboxPruneOptions, now: Date) {
  const {
    olderThan,
    limit = 10_000,
    outcomes,
  } = parse('inbox.prune', 'options', pruneSchema, options);
  if (olderThan.getTime() > now.getTime()) {
    throw new StoreInputError('inbox.prune', {
      olderThan: [
        `olderThan must not be later than now (${now.toISOString()}); to delete every finished entry, pass the current time.`,
      ],
    });
  }
  return { olderThan: new Date(olderThan), limit, outcomes };
}
