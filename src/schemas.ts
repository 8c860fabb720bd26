/**
 * `pesakit/schemas`: the zod schemas of the platform's requests, answers and callbacks (with the
 * types they infer), and of the bulk airtime rows and answers — for a merchant who validates
 * what reaches their own code (a webhook relay, a test fixture) with the rules pesakit uses.
 */
export * from './schemas/airtime-bulk.js';
export * from './schemas/index.js';
