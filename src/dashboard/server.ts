import type { AddressInfo } from 'node:net';
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { PesakitError } from '../errors/pesakit-error.js';
import { createHostGuard } from '../internal/host-guard.js';
import { withoutPhoneNumbers } from '../internal/phone-numbers.js';
import type { ReferenceStore } from '../references/types.js';
import { DashboardAccess, dashboardToken } from './access.js';
import { registerDashboardApi } from './api.js';
import { DASHBOARD_STYLE, dashboardPage } from './page.js';
import { DASHBOARD_SCRIPT } from './page-script.js';

export interface DashboardOptions {
  /** The store the merchant's application writes (SQLite, PostgreSQL or memory). */
  store: ReferenceStore;
  /** What opens the page; at least 16 characters. @default 32 random bytes, base64url */
  token?: string;
  /** The address to listen on; another than loopback shows the page to the network. @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 4020 */
  port?: number;
  /** Host names answered besides loopback ones (the name others reach a non-loopback host by). */
  allowedHosts?: readonly string[];
}

export interface Dashboard {
  /** Starts listening; resolves with `url`. */
  listen(): Promise<string>;
  /** The address to open, token included, once listening. */
  readonly url: string;
  /** Stops listening; the store stays open (it is the caller's). */
  close(): Promise<void>;
}

/**
 * The operations page over a reference store: totals, finals per hour, open records, reviews
 * with their evidence, dead effects and callbacks, each operator's health. It records a person's
 * decisions in the store; the merchant's handlers run where they always do, never here.
 */
export function createDashboard(options: DashboardOptions): Dashboard {
  const { store, host = '127.0.0.1', port = 4020, allowedHosts = [] } = options;
  const token = dashboardToken(options.token);
  const guard = createHostGuard(
    allowedHosts,
    'to allow another name, list it in allowedHosts (pesakit dashboard --allowed-host <name>)',
  );
  const access = new DashboardAccess(token, guard);
  // No logger: a request line would carry the token of a first visit.
  const app = Fastify({ logger: false, bodyLimit: 16_384 });
  app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (access.refuse(request, reply)) return reply;
  });
  // Whatever a record or callback carries, a phone number leaves with its last three digits only.
  app.addHook('onSend', async (_request, reply, payload) =>
    typeof payload === 'string' && /json/.test(String(reply.getHeader('content-type')))
      ? withoutPhoneNumbers(payload)
      : payload,
  );
  app.setErrorHandler(async (error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode ?? 500;
    const message = status < 500 ? error.message : 'The dashboard could not read the store.';
    return reply.code(status).send({ message });
  });
  app.setNotFoundHandler(async (_request, reply) =>
    reply.code(404).send({ message: 'No such page.' }),
  );
  app.get('/', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(dashboardPage(access.csrf)),
  );
  app.get('/dashboard.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(DASHBOARD_SCRIPT),
  );
  app.get('/dashboard.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(DASHBOARD_STYLE),
  );
  // Browsers ask for one: an empty answer keeps their consoles clean.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  registerDashboardApi(app, store);

  let url: string | undefined;
  return {
    async listen() {
      await app.listen({ host, port });
      const { port: bound } = app.server.address() as AddressInfo;
      // Every address: the page is opened on this machine, by a loopback name the guard answers.
      const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      const name = shown.includes(':') ? `[${shown}]` : shown;
      url = `http://${name}:${bound}/?token=${encodeURIComponent(token)}`;
      return url;
    },
    get url() {
      if (url === undefined) throw new PesakitError('The dashboard has no address until listen().');
      return url;
    },
    async close() {
      await app.close();
    },
  };
}
