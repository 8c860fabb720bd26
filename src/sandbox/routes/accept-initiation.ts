import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { SandboxContext } from '../context.js';
import { CONTROL_URL_MESSAGE, isControlUrl } from '../http/control-path.js';
import { atCapacity, parseBody, sendValidationError } from '../http/replies.js';
import type { CollectionRecord } from '../state/collections.js';
import { autoSettle, type CollectionOpening, openCollection } from '../state/open-collection.js';

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

/** Opens a collection whose body passed its schema: the amount cap, no control-API callback, room. */
export function openChecked(
  context: SandboxContext,
  opening: CollectionOpening,
  reply: FastifyReply,
) {
  if (aboveMaxAmount(context, opening.amount, reply)) return undefined;
  if (opening.callback_url !== undefined && isControlUrl(opening.callback_url)) {
    sendValidationError(reply, { callback_url: [CONTROL_URL_MESSAGE] });
    return undefined;
  }
  if (atCapacity(context, reply, 'collections', context.collections.size)) return undefined;
  return openCollection(context, opening);
}

export function acceptInitiation(
  context: SandboxContext,
  channel: 'mno' | 'bank' | 'pay_mobile',
  schema: z.ZodType<Omit<CollectionOpening, 'channel' | 'ownerId' | 'merchantReference'>>,
  request: { body: unknown; ownerId: number | null; merchantReference: string | null },
  reply: FastifyReply,
): ReturnType<typeof initiationView> | undefined {
  const parsed = parseBody(schema, request.body, reply);
  const record =
    parsed &&
    openChecked(
      context,
      {
        ...parsed,
        channel,
        ownerId: request.ownerId,
        merchantReference: request.merchantReference,
      },
      reply,
    );
  if (!record) return undefined;
  if (channel === 'bank') {
    return initiationView(record, 'Control number issued; the customer pays it at a bank.');
  }
  autoSettle(context, record);
  return initiationView(record, 'Payment request sent to the customer’s phone.');
}
