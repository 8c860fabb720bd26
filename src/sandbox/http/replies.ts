import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  type FieldErrors,
  fieldErrorsFrom,
  summarizeFieldErrors,
} from '../../schemas/error-body.js';
import type { SandboxContext } from '../context.js';
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

/**
 * Parses a body with its schema (missing reads as `{}`); over-long strings are refused first.
 * A refused body is answered here (422) and gives `undefined`.
 */
export function parseBody<S extends z.ZodType<object>>(
  schema: S,
  body: unknown,
  reply: FastifyReply,
): z.output<S> | undefined {
  const input = body === undefined ? {} : body;
  const oversized = oversizedStrings(input);
  const result = oversized ? undefined : schema.safeParse(input);
  if (result?.success) return result.data;
  sendValidationError(reply, oversized ?? fieldErrorsFrom(result!.error, input));
  return undefined;
}

/** Each in-memory list has a cap (`recordLimit`): one more is a 429 `sandbox_full`, until a reset. */
export function atCapacity(
  context: SandboxContext,
  reply: FastifyReply,
  what: string,
  count: number,
): boolean {
  const limit = context.options.recordLimit;
  if (count < limit) return false;
  sendError(
    reply,
    429,
    `The sandbox already holds its maximum of ${limit} ${what}; reset it (POST /api/sandbox/_control/reset) to start again.`,
    'sandbox_full',
  );
  return true;
}
