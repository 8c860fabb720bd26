// A bare Fastify POST route answering JSON, with Fastify's defaults (its own parser and
// serializer, no hooks, no plugins): the least a JSON API server does. Prints `listening on`.
import Fastify from 'fastify';

const app = Fastify();
app.post('/*', async (request) => ({ message: 'ok', received: request.body }));
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
console.log(`listening on ${url}`);
