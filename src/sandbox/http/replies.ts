import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  type FieldErrors,
  fieldErrorsFrom,
  summarizeFieldErrors,
} from '../../schemas/error-body.js';
import { oversizedStrings } from './string-limits.js';

/** `{message}`, plus `code` where the status alone is ambiguous (docs/api-contract.md § Errors). */
export function sendError(reply: FastifyReply, status: number, message: string, code?: string) {
  return reply.code(status).send(code === undefined ? { message } : { message, code });
}

/** A 422 naming each field and the rule it broke. */
export function sendValidationError(reply: FastifyReply, errors: FieldErrors, code?: string) {
  const body = { message: summarizeFieldErrors(errors), errors };
  return reply.code(422).send(code === undefined ? body : { ...body, code });
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; errors: FieldErrors };

/**
 * Parses a body with its endpoint's schema; a missing body reads as `{}` so the caller learns
 * which fields are required. Over-long strings (string-limits.ts) are refused first.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): Parsed<z.output<S>> {
  const input = body === undefined ? {} : body;
  const oversized = oversizedStrings(input);
  if (oversized) return { ok: false, errors: oversized };
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: fieldErrorsFrom(result.error, input) };
}
