import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { CONTROL_URL_MESSAGE, isControlUrl } from '../http/control-path.js';
import { atCapacity, parseBody, sendValidationError } from '../http/replies.js';
import type { CollectionRecord } from '../state/collections.js';
import { autoSettle, openCollection } from '../state/open-collection.js';

/** The initiation answer: the two references a merchant must keep, at the top level. */
export function initiationView(record: CollectionRecord, message: string) {
  return {
    message,
    status: record.status,
    controlNumber: record.controlNumber,
    reference: record.reference,
    amount: record.amount,
  };
}

/** Rejects an amount above the sandbox's upper bound (the spec shows none; ours is an option). */
export function aboveMaxAmount(context: SandboxContext, amount: number, reply: FastifyReply) {
  if (amount <= context.options.maxAmount) return false;
  sendValidationError(reply, {
    amount: [`The amount may not be greater than ${context.options.maxAmount}.`],
  });
  return true;
}

/** Refuses a callback_url into the control API (422, nothing recorded). */
export function controlCallbackUrl(callbackUrl: string | undefined, reply: FastifyReply) {
  if (callbackUrl === undefined || !isControlUrl(callbackUrl)) return false;
  sendValidationError(reply, { callback_url: [CONTROL_URL_MESSAGE] });
  return true;
}

type InitiationBody = {
  amount: number;
  msisdn?: string | undefined;
  callback_url?: string | undefined;
  description?: string | undefined;
};

export function acceptInitiation(
  context: SandboxContext,
  channel: 'mno' | 'bank' | 'pay_mobile',
  schema: z.ZodType<InitiationBody>,
  request: { body: unknown; ownerId: number | null },
  reply: FastifyReply,
): ReturnType<typeof initiationView> | undefined {
  const parsed = parseBody(schema, request.body, reply);
  if (!parsed) return undefined;
  const { amount, msisdn, callback_url, description } = parsed;
  if (aboveMaxAmount(context, amount, reply)) return undefined;
  if (controlCallbackUrl(callback_url, reply)) return undefined;
  if (atCapacity(context, reply, 'collections', context.collections.size)) return undefined;
  const { ownerId } = request;
  const record = openCollection(context, {
    channel,
    amount,
    msisdn,
    callback_url,
    description,
    ownerId,
  });
  if (channel === 'bank') {
    return initiationView(record, 'Control number issued; the customer pays it at a bank.');
  }
  autoSettle(context, record);
  return initiationView(record, 'Payment request sent to the customer’s phone.');
}
