import { z } from 'zod';
import type { References } from '../record.js';
import type { RecordChange, RecordMove } from '../types.js';
import { dateSchema, parse, shortText, statusSchema, toJsonText, withoutNul } from './common.js';
import { referencesSchema } from './references.js';
import { reviewSchema } from './transition.js';

const changeSchema = z.strictObject(
  {
    status: statusSchema,
    // A reason the ledger composed (a person's note behind `resolved by a person: `).
    statusReason: withoutNul(
      z
        .string({ error: 'must be a string' })
        .max(2000, { error: 'must be at most 2000 characters' }),
    ).nullable(),
    provider: z.string({ error: 'must be a string' }).max(64).nullable().optional(),
    review: reviewSchema.nullable().optional(),
    lastPayload: z.unknown().optional(),
    resolution: z
      .strictObject({
        status: z.enum(['success', 'failed'], { error: 'must be success or failed' }),
        note: shortText,
        by: shortText.nullable(),
        at: dateSchema.optional(),
      })
      .optional(),
    at: dateSchema.optional(),
    attempted: z.boolean({ error: 'must be true or false' }),
    final: z.boolean({ error: 'must be true or false' }),
    effect: z.enum(['due', 'done', 'kept'], { error: 'must be due, done or kept' }),
  },
  { error: 'must be a change { status, statusReason, attempted, final, effect, … }' },
);

const moveSchema = z.strictObject(
  {
    expected: statusSchema,
    references: referencesSchema.optional(),
    change: changeSchema.optional(),
    leaseToken: z.string({ error: 'must be a string' }).min(1).max(200).optional(),
  },
  { error: 'must be a move { expected, references?, change?, leaseToken? }' },
);

/** A move's change with its payload as JSON (`payloadText` serialised once, for SQL). */
export type ParsedChange = RecordChange & { payloadText?: string };
export type ParsedMove = Omit<RecordMove, 'change'> & {
  references: References;
  change?: ParsedChange;
};

/** What `store.move()` is given, checked in one order in every store. */
export function parseMove(move: RecordMove): ParsedMove {
  const parsed = parse('records.move', 'records.move', moveSchema, move);
  const references: References = {};
  for (const [field, value] of Object.entries(parsed.references ?? {})) {
    if (value !== undefined) references[field as keyof References] = value;
  }
  const { change: given, expected, leaseToken } = parsed;
  const rest = { expected, ...(leaseToken === undefined ? {} : { leaseToken }) };
  if (given === undefined) return { ...rest, references };
  const { lastPayload, ...change } = given as RecordChange;
  if (move.change === undefined || !('lastPayload' in move.change)) {
    return { ...rest, references, change };
  }
  const payloadText = toJsonText('records.move', 'change.lastPayload', lastPayload);
  return {
    ...rest,
    references,
    change: { ...change, lastPayload: JSON.parse(payloadText) as unknown, payloadText },
  };
}
