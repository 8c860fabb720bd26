import type { FastifyInstance, FastifyReply } from 'fastify';
import { isInvalidTransitionError } from '../errors/invalid-transition-error.js';
import { isStoreInputError } from '../errors/store-input-error.js';
import { isTransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import { resolveReview } from '../ledger/ledger.js';
import { reportsOf } from '../references/listed-reports.js';
import { transactionStatuses } from '../references/transitions.js';
import type { ReferenceStore } from '../references/types.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';

/** How many dead effects and dead callbacks the summary lists (the oldest first). */
const deadListed = 50;
/** How many callbacks a record's evidence shows. */
const callbacksListed = 50;
/** A page of records: enough to read, small enough that a page never holds up the process. */
export const pageSizeLimit = 500;
const defaultPageSize = 100;

type Query = Record<string, string | undefined>;
type Body = Record<string, unknown>;

/** Why an input is refused: the field and its rule, as the store's own refusals read. */
function refuse(reply: FastifyReply, field: string, rule: string) {
  const message = `${field} ${rule}.`;
  return reply.code(400).send({ message, errors: { [field]: [message] } });
}

/** The body as an object, or the refusal already sent. */
function objectBody(body: unknown, shape: string, reply: FastifyReply): Body | undefined {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Body;
  refuse(reply, 'body', `must be a JSON object ${shape}`);
  return undefined;
}

/**
 * The JSON API behind the page, for scripts too. A record is named in the query or the body,
 * never in the path: a reference may be `.` or `..` (which a browser resolves away) or 128
 * characters long. The store checks every value it is given (its errors name the field and
 * rule, answered 400); the page records decisions and runs no handler.
 */
export function registerDashboardApi(app: FastifyInstance, store: ReferenceStore): void {
  const inTurn = takingTurns();
  const reports = reportsOf(store);
  const answer = (reply: FastifyReply, work: () => Promise<unknown>) =>
    answerWith(inTurn, reply, work);
  app.get('/api/summary', async (request, reply) => {
    const { hours } = request.query as Query;
    return answer(reply, async () => {
      // Side by side for PostgreSQL (round trips); for SQLite the counts and the rest run in two
      // turns of the event loop, so neither stretch of work is their sum.
      const [summary, report, deadEffects, deadCallbacks] = await Promise.all([
        reports.summary(),
        nextTurn().then(() =>
          reports.operations(hours === undefined ? {} : { hours: Number(hours) }),
        ),
        nextTurn().then(() => store.effects.list('dead', { limit: deadListed })),
        nextTurn().then(() => store.inbox.list({ status: 'dead', limit: deadListed })),
      ]);
      return { ...summary, ...report, deadEffects, deadCallbacks };
    });
  });

  app.get('/api/records', async (request, reply) => {
    const { status, product, limit, after } = request.query as Query;
    const statuses = status?.split(',');
    const known: readonly string[] = transactionStatuses;
    if (statuses?.some((each) => !known.includes(each))) {
      return refuse(reply, 'status', `must list ${known.join(', ')} (comma-separated)`);
    }
    const size = limit === undefined ? defaultPageSize : Number(limit);
    if (!Number.isInteger(size) || size < 1 || size > pageSizeLimit) {
      return refuse(reply, 'limit', `must be a whole number from 1 to ${pageSizeLimit}`);
    }
    const from = after === undefined ? undefined : readCursor(after);
    if (from === null) return refuse(reply, 'after', 'must be the next of a page this API gave');
    return answer(reply, async () => {
      const records = await store.records.list({
        oldestFirst: true,
        limit: size,
        ...(statuses && { statuses: statuses as TransactionStatus[] }),
        ...(product !== undefined && { product: product as 'collection' }),
        ...(from && { after: from }),
      });
      const last = records.at(-1);
      return { records, next: records.length === size && last ? cursorOf(last) : null };
    });
  });

  // The evidence a person decides on: the answer, the callbacks, the reconciler's checks.
  app.get('/api/records/evidence', async (request, reply) => {
    const { reference } = request.query as Query;
    if (reference === undefined) return refuse(reply, 'reference', 'must be given');
    return answer(reply, async () => {
      const record = await store.records.get(reference);
      if (!record) {
        return reply
          .code(404)
          .send({ message: `No record has the merchant reference ${JSON.stringify(reference)}.` });
      }
      const { paymentReference } = record;
      return {
        record,
        callbacks: paymentReference
          ? await store.inbox.list({ paymentReference, limit: callbacksListed })
          : [],
        checks: await store.schedule.observations(record.merchantReference),
      };
    });
  });

  app.post('/api/records/resolve', async (request, reply) => {
    const body = objectBody(request.body, '{ reference, outcome, note, by? }', reply);
    if (!body) return reply;
    const { reference, outcome, note, by } = body;
    return answer(reply, async () => ({
      record: await resolveReview(store, reference as string, outcome as 'success', {
        note: note as string,
        ...(by !== undefined && by !== '' && { by: by as string }),
      }),
    }));
  });

  app.post('/api/records/retry-effect', async (request, reply) => {
    const body = objectBody(request.body, '{ reference }', reply);
    if (!body) return reply;
    return answer(reply, async () => ({
      record: await store.effects.retry(body['reference'] as string),
    }));
  });

  app.post('/api/callbacks/requeue', async (request, reply) => {
    const body = objectBody(request.body, '{ id }', reply);
    if (!body) return reply;
    return answer(reply, async () => ({
      callback: await store.inbox.requeue(body['id'] as string),
    }));
  });
}

/** A page's end as an opaque `next`: the last record's creation time and reference. */
function cursorOf(record: { createdAt: Date; merchantReference: string }): string {
  const key = JSON.stringify([record.createdAt.toISOString(), record.merchantReference]);
  return Buffer.from(key).toString('base64url');
}

/** The key a `next` names; null when it is not one (the store checks the reference itself). */
function readCursor(cursor: string): { createdAt: Date; merchantReference: string } | null {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(key) || key.length !== 2) return null;
    const [at, merchantReference] = key as unknown[];
    const createdAt = new Date(typeof at === 'string' ? at : Number.NaN);
    if (Number.isNaN(createdAt.getTime()) || typeof merchantReference !== 'string') return null;
    return { createdAt, merchantReference };
  } catch {
    return null;
  }
}

/**
 * A turn of the event loop. A SQLite store answers synchronously behind its promises, so
 * without one a request's reads (and a burst of requests) would run as one block, and the
 * application sharing the process would wait for all of it.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * One dashboard read at a time, each starting in a turn of its own: twenty requests at once
 * hold the process for one request's work at a time, with its other work served in between.
 */
function takingTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const turn = last.then(nextTurn).then(work);
    last = turn.catch(() => {});
    return turn;
  };
}

/** The store's refusals as 4xx naming the field; anything else is the server's failure. */
async function answerWith(
  inTurn: ReturnType<typeof takingTurns>,
  reply: FastifyReply,
  work: () => Promise<unknown>,
): Promise<unknown> {
  try {
    return await inTurn(work);
  } catch (error) {
    if (isTransactionNotFoundError(error)) return reply.code(404).send({ message: error.message });
    if (isInvalidTransitionError(error)) return reply.code(409).send({ message: error.message });
    if (!isStoreInputError(error)) throw error;
    // Only a dead effect or callback is retried: another state is a conflict, not a typo.
    const conflict = 'effect.status' in error.errors || 'status' in error.errors;
    return reply.code(conflict ? 409 : 400).send({ message: error.message, errors: error.errors });
  }
}
