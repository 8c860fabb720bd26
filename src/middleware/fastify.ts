import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import { jsonResponse, type ReceivedRequest, type ReceiverResponse } from '../callbacks/http.js';
import type { ReturnUrls } from '../callbacks/return-urls.js';
import { checkReturnUrls } from '../callbacks/return-urls.js';
import { type MountableReceiver, receiveOptions } from './mountable-receiver.js';
import { bodyTooLargeResponse } from './node-response.js';

export interface PesakitFastifyOptions {
  receiver: MountableReceiver;
  /** Where the routes live: `<prefix>/callback`, `<prefix>/return`. @default '/pesakit' */
  prefix?: string;
  /** Return pages by verified outcome; win over the receiver's. Without either: JSON. */
  returnUrls?: ReturnUrls;
}

/** The callback receiver as a Fastify 5 plugin in its own context: bodies read raw (up to
 * `receiver.maxBodyBytes`), the app's parsers, hooks and error handler untouched. */
const plugin: FastifyPluginAsync<PesakitFastifyOptions> = async (app, options) => {
  // A bad return URL is a mistake of the app's setup: `register` (or `ready`) rejects with it.
  checkReturnUrls(options.returnUrls);
  // The routes get their own child context: it takes the prefix and keeps the body parsers in.
  await app.register(receiverRoutes, {
    receiver: options.receiver,
    prefix: options.prefix ?? '/pesakit',
    ...(options.returnUrls ? { returnUrls: options.returnUrls } : {}),
  });
};

async function receiverRoutes(app: FastifyInstance, options: PesakitFastifyOptions) {
  const { receiver } = options;
  const limit = receiver.maxBodyBytes;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: limit }, (_request, body, done) =>
    done(null, body),
  );
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, bodyTooLargeResponse(limit));
    }
    // Fastify's own refusals of malformed requests (bad content-length, …) stay 4xx.
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      return send(reply, jsonResponse(status, { message: error.message }));
    }
    throw error;
  });
  const prefix = app.prefix;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url.startsWith(prefix) ? request.url.slice(prefix.length) : request.url;
    const received: ReceivedRequest = {
      method: request.method,
      url: url.startsWith('/') ? url : `/${url}`,
      headers: request.headers,
      ...(request.body === undefined || request.body === null ? {} : { body: request.body }),
      // The socket's address, or the client's as `trustProxy` reads it: its callback budget.
      source: request.ip,
    };
    return send(reply, await receiver.receive(received, receiveOptions(options)));
  };
  // With a prefix every path is pesakit's (unknown ones 404 naming its paths); without one only
  // its own paths are routed, so the app's not-found handler is not shadowed.
  const own = options.prefix;
  const paths = own === '' || own === '/' ? receiverPaths : ['/*'];
  for (const path of paths) app.all(path, { bodyLimit: limit }, handler);
}

/** The paths the receiver answers (receiver.ts `#route`), with the trailing slash it accepts. */
const receiverPaths = ['/callback', '/callback/', '/return', '/return/'];

function send(reply: FastifyReply, answer: ReceiverResponse) {
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

export const pesakitFastify = fp(plugin, { fastify: '5.x', name: 'pesakit' });
