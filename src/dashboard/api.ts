import type { FastifyInstance, FastifyReply } from 'fastify';
import { isInvalidTransitionError } from '../errors/invalid-transition-error.js';
import { isStoreInputError } from '../errors/store-input-error.js';
import { isTransactionNotFoundError } from '../errors/transaction-not-found-error.js';
import { resolveReview } from '../ledger/ledger.js';
import { transactionStatuses } from '../references/transitions.js';
import type { ReferenceStore } from '../references/types.js';
import type { TransactionStatus } from '../schemas/transaction-status.js';

/** How many dead effects and dead callbacks the summary lists (the oldest first). */
const deadListed = 50;

type Params = { ref: string };
type Query = Record<string, string | undefined>;

/**
 * The JSON API behind the page, for scripts too. The store checks every value it is given (its
 * errors name the field and rule, answered 400); the page records decisions and runs no handler.
 */
export function registerDashboardApi(app: FastifyInstance, store: ReferenceStore): void {
  app.get('/api/summary', async (request, reply) => {
    const { hours } = request.query as Query;
    return answer(reply, async () => {
      const report = await store.operationsReport(
        hours === undefined ? {} : { hours: Number(hours) },
      );
      return {
        ...(await store.summarize()),
        ...report,
        deadEffects: await store.listEffects('dead', { limit: deadListed }),
        deadCallbacks: await store.inbox.list({ status: 'dead', limit: deadListed }),
      };
    });
  });

  app.get('/api/records', async (request, reply) => {
    const { status, product, limit } = request.query as Query;
    const statuses = status?.split(',');
    const known: readonly string[] = transactionStatuses;
    if (statuses?.some((each) => !known.includes(each))) {
      const rule = `status must list ${known.join(', ')} (comma-separated).`;
      return reply.code(400).send({ message: rule, errors: { status: [rule] } });
    }
    return answer(reply, async () => ({
      records: await store.listOpen({
        oldestFirst: true,
        limit: limit === undefined ? 200 : Number(limit),
        ...(statuses && { statuses: statuses as TransactionStatus[] }),
        ...(product !== undefined && { product: product as 'collection' }),
      }),
    }));
  });

  // The evidence a person decides on: the answer, the callbacks, the reconciler's checks.
  app.get<{ Params: Params }>('/api/records/:ref', async (request, reply) =>
    answer(reply, async () => {
      const record = await store.get(request.params.ref);
      if (!record) return reply.code(404).send({ message: `No record is ${request.params.ref}.` });
      const { paymentReference } = record;
      return {
        record,
        callbacks: paymentReference ? await store.inbox.list({ paymentReference }) : [],
        checks: await store.readObservations(record.merchantReference),
      };
    }),
  );

  app.post<{ Params: Params }>('/api/records/:ref/resolve', async (request, reply) => {
    const body = request.body as { outcome?: unknown; note?: unknown; by?: unknown } | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return reply.code(400).send({ message: 'The body must be { outcome, note, by? }.' });
    }
    const { outcome, note, by } = body;
    return answer(reply, async () => ({
      record: await resolveReview(store, request.params.ref, outcome as 'success', {
        note: note as string,
        ...(by !== undefined && by !== '' && { by: by as string }),
      }),
    }));
  });

  app.post<{ Params: Params }>('/api/records/:ref/retry-effect', async (request, reply) =>
    answer(reply, async () => ({ record: await store.retryEffect(request.params.ref) })),
  );

  app.post<{ Params: { id: string } }>('/api/callbacks/:id/requeue', async (request, reply) =>
    answer(reply, async () => ({ callback: await store.inbox.requeue(request.params.id) })),
  );
}

/** The store's refusals as 4xx naming the field; anything else is the server's failure. */
async function answer(reply: FastifyReply, work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (error) {
    if (isTransactionNotFoundError(error)) return reply.code(404).send({ message: error.message });
    if (isInvalidTransitionError(error)) return reply.code(409).send({ message: error.message });
    if (!isStoreInputError(error)) throw error;
    // Only a dead effect or callback is retried: another state is a conflict, not a typo.
    const conflict = 'effect.status' in error.errors || 'status' in error.errors;
    return reply.code(conflict ? 409 : 400).send({ message: error.message, errors: error.errors });
  }
}
