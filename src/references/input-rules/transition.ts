import { z } from 'zod';
import { StoreInputError } from '../../errors/store-input-error.js';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import { type ReviewVerdict, reviewReasons } from '../review.js';
import type { ResolveOptions, TransitionDetails } from '../types.js';
import { dateSchema, parse, shortText, statusSchema, toJson, toJsonText } from './common.js';

export const reviewSchema = z.object(
  {
    reason: z.enum(reviewReasons, { error: `must be one of ${reviewReasons.join(', ')}` }),
    message: shortText.min(1, { error: 'must not be empty' }),
    evidence: z.unknown().optional(),
  },
  { error: 'must be a review verdict { reason, message, evidence? }' },
);

const transitionSchema = z
  .object({
    to: statusSchema,
    reason: shortText.optional(),
    at: dateSchema.optional(),
    review: reviewSchema.optional(),
    provider: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(64, { error: 'must be at most 64 characters' })
      .optional(),
  })
  .refine((details) => details.to !== 'needs_review' || details.review !== undefined, {
    error: 'is required when moving to needs_review: say why a person must decide',
    path: ['review'],
  })
  .refine((details) => details.to === 'needs_review' || details.review === undefined, {
    error: 'is only for a move to needs_review',
    path: ['review'],
  });

const resolveSchema = z.object({
  outcome: z.enum(['success', 'failed'], { error: 'must be success or failed' }),
  note: shortText.trim().min(1, { error: 'is required: say why, for the audit trail' }),
  by: z
    .string({ error: 'must be a string' })
    .max(200, { error: 'must be at most 200 characters' })
    .optional(),
  at: dateSchema.optional(),
});

/** `payload` normalised to what JSON can hold; `payloadText` serialised once. */
export type ParsedTransition = ReturnType<typeof parseTransition>;

export function parseTransition(to: TransactionStatus, details: TransitionDetails = {}) {
  if (typeof details !== 'object' || details === null) {
    throw new StoreInputError('transition', {
      details: ['details must be an object { reason?, at?, review?, payload?, provider? }.'],
    });
  }
  const parsed = parse('transition', 'details', transitionSchema, { ...details, to });
  const hasPayload = details.payload !== undefined;
  const payloadText = hasPayload ? toJsonText('transition', 'payload', details.payload) : 'null';
  return {
    to: parsed.to,
    reason: parsed.reason ?? parsed.review?.message,
    at: parsed.at,
    payload: hasPayload ? (JSON.parse(payloadText) as unknown) : null,
    payloadText,
    hasPayload,
    review: parsed.review && parseReview('transition', parsed.review),
    provider: parsed.provider,
  };
}

function parseReview(operation: string, review: ReviewVerdict): ReviewVerdict {
  const verdict: ReviewVerdict = { reason: review.reason, message: review.message };
  if (review.evidence !== undefined) {
    verdict.evidence = toJson(operation, 'review.evidence', review.evidence);
  }
  return verdict;
}

export function parseResolve(
  outcome: 'success' | 'failed',
  options: ResolveOptions,
): { outcome: 'success' | 'failed'; note: string; by: string | null; at: Date | undefined } {
  const parsed = parse('resolve', 'options', resolveSchema, { ...(options ?? {}), outcome });
  return { outcome: parsed.outcome, note: parsed.note, by: parsed.by ?? null, at: parsed.at };
}
