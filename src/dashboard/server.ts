import type { AddressInfo } from 'node:net';
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { ConfigurationError } from '../errors/configuration-error.js';
import { PesakitError } from '../errors/pesakit-error.js';
import { createHostGuard } from '../internal/host-guard.js';
import { withoutPhoneNumbers } from '../internal/phone-numbers.js';
import type { ReferenceStore } from '../references/types.js';
import { DashboardAccess, dashboardToken, schemeOf } from './access.js';
import { registerDashboardApi } from './api.js';
import { exposureOf } from './exposure.js';
import { DASHBOARD_STYLE, dashboardPage } from './page.js';
import { DASHBOARD_SCRIPT } from './page-script.js';
import { DashboardSessions, defaultSessionMs } from './sessions.js';

export interface DashboardOptions {
  /** The store the merchant's application writes (SQLite, PostgreSQL or memory). */
  store: ReferenceStore;
  /**
   * What scripts send as `Authorization: Bearer <token>`, and what signs sessions: dashboards
   * sharing a token accept each other's sessions; a new token ends them all. At least 16
   * characters, or 32 random ones when `host` is beyond loopback.
   * @default 32 random bytes, base64url
   */
  token?: string;
  /**
   * The address to listen on. Beyond loopback the page is reachable from the network: it then
   * needs a token of at least 32 random characters, and warns (`onWarning`).
   * @default '127.0.0.1'
   */
  host?: string;
  /** 0 picks a free port. @default 4020 */
  port?: number;
  /** Host names answered besides loopback ones and the addresses it listens on. */
  allowedHosts?: readonly string[];
  /**
   * How long a session opened with a sign-in code lasts, in milliseconds (1 minute to 30 days).
   * @default 43_200_000 (12 hours)
   */
  sessionMs?: number;
  /** Told when the page listens beyond loopback. @default process.emitWarning */
  onWarning?: (message: string) => void;
  /** The clock codes and sessions expire by (tests). @default () => new Date() */
  now?: () => Date;
}

export interface Dashboard {
  /** Starts listening; resolves with `url`. */
  listen(): Promise<string>;
  /** The page's address (without a sign-in code), once listening; the network's first. */
  readonly url: string;
  /** Every address the page is reachable at, once listening. */
  readonly urls: readonly string[];
  /** A fresh one-time sign-in address: valid once, for 60 seconds, on this instance only. */
  signInUrl(): string;
  /** Stops listening and ends this instance's codes and sessions; the store stays open. */
  close(): Promise<void>;
}

const maxSessionMs = 30 * 86_400_000;

/**
 * The operations page over a reference store: totals, finals per hour, open records, reviews
 * with their evidence, dead effects and callbacks, each operator's health. It records a person's
 * decisions in the store; the merchant's handlers run where they always do, never here.
 */
export function createDashboard(options: DashboardOptions): Dashboard {
  const { store, host = '127.0.0.1', port = 4020, allowedHosts = [] } = options;
  const { sessionMs = defaultSessionMs, now = () => new Date() } = options;
  const onWarning = options.onWarning ?? ((message: string) => process.emitWarning(message));
  if (!Number.isInteger(sessionMs) || sessionMs < 60_000 || sessionMs > maxSessionMs) {
    throw new ConfigurationError(
      'sessionMs',
      `The dashboard's sessionMs must be a whole number of milliseconds from 60000 (a minute) to ${maxSessionMs} (30 days).`,
    );
  }
  const exposure = exposureOf(host);
  const token = dashboardToken(options.token, exposure.exposed);
  const guard = createHostGuard(
    [...allowedHosts, ...exposure.hostnames],
    'to allow another name, list it in allowedHosts (pesakit dashboard --allowed-host <name>)',
  );
  const sessions = new DashboardSessions(token, sessionMs, () => now().getTime());
  const access = new DashboardAccess(token, guard, sessions);
  // No logger: a request line would carry a sign-in code.
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
  app.get('/', async (request, reply) => {
    const session = access.sessionOf(request);
    const csrf = session ? sessions.csrfOf(session) : '';
    return reply.type('text/html; charset=utf-8').send(dashboardPage(csrf));
  });
  app.get('/dashboard.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').send(DASHBOARD_SCRIPT),
  );
  app.get('/dashboard.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(DASHBOARD_STYLE),
  );
  // Browsers ask for one: an empty answer keeps their consoles clean.
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  // A script holding the token asks a running dashboard for a code (pesakit dashboard --sign-in);
  // a session cannot, so a stolen cookie cannot outlive its expiry.
  app.post('/api/sign-in-codes', async (request, reply) => {
    if (!access.byBearer(request)) {
      return reply.code(403).send({ message: 'A sign-in code is given to the bearer token only.' });
    }
    const { code, expiresAt } = sessions.issueCode();
    const url = `${schemeOf(request)}://${request.headers.host}/sign-in?code=${code}`;
    return { url, expiresAt };
  });
  registerDashboardApi(app, store);

  let urls: string[] | undefined;
  const listening = () => {
    if (urls === undefined) throw new PesakitError('The dashboard has no address until listen().');
    return urls;
  };
  return {
    async listen() {
      await app.listen({ host, port });
      const { port: bound } = app.server.address() as AddressInfo;
      urls = exposure.hostnames.map((name) => `http://${name}:${bound}/`);
      if (exposure.exposed) {
        onWarning(
          `The pesakit dashboard listens on ${host}: anyone who can reach ${urls.join(', ')} can try to sign in. Prefer 127.0.0.1 with an SSH tunnel, or put it behind an HTTPS proxy that sets X-Forwarded-Proto.`,
        );
      }
      return urls[0] as string;
    },
    get url() {
      return listening()[0] as string;
    },
    get urls() {
      return [...listening()];
    },
    signInUrl() {
      const { code } = sessions.issueCode();
      return `${listening()[0]}sign-in?code=${code}`;
    },
    async close() {
      sessions.end();
      await app.close();
    },
  };
}
