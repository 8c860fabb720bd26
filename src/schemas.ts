/** `pesakit/schemas`: the zod schemas (and their types) of every request, answer and callback. */
export * from './schemas/airtime-bulk.js';
export * from './schemas/index.js';
