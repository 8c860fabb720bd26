import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  type FieldErrors,
  fieldErrorsFrom,
  summarizeFieldErrors,
} from '../../schemas/error-body.js';
import { oversizedStrings } from './string-limits.js';

/**
 * Laravel-style error bodies (docs/api-contract.md § Errors): `{message}` for every error, plus
 * `errors` (dotted field → messages) on a 422, plus `code` where the status alone is ambiguous.
 */
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
 * Parses a request body with its endpoint's schema. A missing body reads as `{}` so that the
 * caller learns which fields are required, rather than only that the body was empty. Strings
 * longer than their limit (string-limits.ts) are refused first, whatever the schema says.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): Parsed<z.output<S>> {
  const input = body === undefined ? {} : body;
  const oversized = oversizedStrings(input);
  if (oversized) return { ok: false, errors: oversized };
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: fieldErrorsFrom(result.error, input) };
}
