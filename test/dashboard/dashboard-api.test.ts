import { request as httpRequest } from 'node:http';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard, type Dashboard } from '../../src/dashboard.js';
import { isConfigurationError } from '../../src/errors/configuration-error.js';
import { MemoryReferenceStore } from '../../src/index.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import type { ReferenceStore } from '../../src/references/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import {
  customer,
  oddReferences,
  seedOddReferences,
  seedOperations,
} from '../helpers/dashboard-seed.js';
import { failure } from '../helpers/failure.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';
import { runCli } from '../reconciler-cli/harness.js';

const token = 'test-token-0123456789abcdef';
const sqliteFile = temporarySqliteFiles('dashboard');
let database: TestDatabase | undefined;
let schemas = 0;

afterAll(async () => {
  await database?.drop();
});

const stores: Record<string, () => Promise<ReferenceStore>> = {
  SQLite: () => SqliteReferenceStore.open(sqliteFile()),
  PostgreSQL: async () => {
    database ??= await createTestDatabase('dashboard');
    schemas += 1;
    return PostgresReferenceStore.open(database.url, {
      maxConnections: 2,
      schema: `dashboard_${schemas}`,
    });
  },
};

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => Record<string, unknown>;
}

/** node:http, not fetch: a test must be able to send any Host header. */
function send(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers = {
    ...(body !== undefined && { 'content-type': 'application/json' }),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { method: options.method ?? 'GET', headers });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          json: () => JSON.parse(text) as Record<string, unknown>,
        }),
      );
    });
    req.end(body);
  });
}

const bearer = { authorization: `Bearer ${token}` };

describe.each(Object.keys(stores))('the dashboard over a %s store', (kind) => {
  let store: ReferenceStore;
  let dashboard: Dashboard;
  let origin: string;

  beforeEach(async () => {
    store = await stores[kind]!();
    await seedOperations(store);
    dashboard = createDashboard({ store, token, port: 0 });
    origin = new URL(await dashboard.listen()).origin;
    return async () => {
      await dashboard.close();
      await store.close();
    };
  });

  /** The cookie a one-time sign-in address sets. */
  async function session(): Promise<string> {
    const visit = await send(
      origin,
      new URL(dashboard.signInUrl()).pathname + new URL(dashboard.signInUrl()).search,
    );
    expect(visit.status).toBe(303);
    expect(visit.headers['location']).toBe('/');
    const [cookie] = visit.headers['set-cookie'] as string[];
    expect(cookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\//);
    return cookie!.split(';')[0]!;
  }

  describe('every request needs the token', () => {
    it('refuses without it, and with a wrong one', async () => {
      expect(dashboard.url).toBe(`${origin}/`);
      for (const path of ['/', '/dashboard.js', '/api/summary', '/api/records']) {
        expect((await send(origin, path)).status).toBe(401);
      }
      // The token in an address opens nothing: history would keep it.
      expect((await send(origin, `/?token=${token}`)).status).toBe(401);
      const wrong = { authorization: 'Bearer test-token-0123456789abcdeX' };
      expect((await send(origin, '/api/summary', { headers: wrong })).status).toBe(401);
    });

    it('a sign-in address gives a cookie; the page has its CSP and no inline script', async () => {
      const cookie = await session();
      const page = await send(origin, '/', { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.text).toMatch(/<script type="module" src="\/dashboard.js"><\/script>/);
      expect(page.text).not.toMatch(/<script>/);
      expect((await send(origin, '/dashboard.js', { headers: { cookie } })).status).toBe(200);
    });

    it('answers loopback host names only, and pages of its own origin', async () => {
      const foreign = await send(origin, '/api/summary', {
        headers: { ...bearer, host: 'attacker.example' },
      });
      expect(foreign.status).toBe(403);
      expect(foreign.json()['message']).toMatch(/loopback host names only/);
      const page = await send(origin, '/api/summary', {
        headers: { ...bearer, origin: 'http://attacker.example' },
      });
      expect(page.status).toBe(403);
    });
  });

  describe('the JSON API', () => {
    it('summary: totals, finals per hour, operators, dead effects and callbacks; phone numbers masked', async () => {
      const answer = await send(origin, '/api/summary', { headers: bearer });
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(customer);
      const summary = answer.json();
      expect(summary['counts']).toEqual([
        { product: 'collection', status: 'failed', count: 1 },
        { product: 'collection', status: 'needs_review', count: 1 },
        { product: 'collection', status: 'success', count: 2 },
        { product: 'collection', status: 'unknown', count: 1 },
      ]);
      const finals = summary['finals'] as { status: string; count: number }[];
      expect(finals).toHaveLength(48);
      expect(finals.filter((f) => f.status === 'success').reduce((n, f) => n + f.count, 0)).toBe(2);
      expect(summary['providers']).toMatchObject([
        { provider: 'vodacom', finals: 3, successes: 2 },
      ]);
      expect(summary['deadEffects']).toMatchObject([
        { merchantReference: 'dead-1', msisdn: '255******456', effect: { status: 'dead' } },
      ]);
      expect(summary['deadCallbacks']).toMatchObject([
        { claim: { paymentReference: 'ENG-LOST' }, status: 'dead' },
      ]);
      const week = await send(origin, '/api/summary?hours=168', { headers: bearer });
      expect(week.json()['finals']).toHaveLength(336);
    });

    it('records by status and product, oldest first; evidence for one record', async () => {
      const waiting = await send(origin, '/api/records?status=needs_review,unknown', {
        headers: bearer,
      });
      const records = waiting.json()['records'] as { merchantReference: string }[];
      expect(records.map((record) => record.merchantReference)).toEqual(['unknown-1', 'review-1']);
      expect(waiting.json()['next']).toBeNull();
      expect(waiting.text).toContain('255******456');
      expect(waiting.text).not.toContain(customer);
      const payouts = await send(origin, '/api/records?product=disbursement', { headers: bearer });
      expect(payouts.json()).toEqual({ records: [], next: null });
      const evidence = await send(origin, '/api/records/evidence?reference=review-1', {
        headers: bearer,
      });
      expect(evidence.json()).toMatchObject({
        record: { review: { reason: 'amount_mismatch' }, lastPayload: { amount: 150 } },
        callbacks: [{ claim: { paymentReference: 'ENG-REVIEW-1' } }],
        checks: [],
      });
      expect(evidence.text).not.toContain(customer);
      const nobody = await send(origin, '/api/records/evidence?reference=nobody', {
        headers: bearer,
      });
      expect(nobody.status).toBe(404);
    });

    it('pages are bounded and follow one another by their next key', async () => {
      const statuses = 'status=success,failed,unknown,needs_review';
      const seen: string[] = [];
      let path = `/api/records?${statuses}&limit=2`;
      for (;;) {
        const page = (await send(origin, path, { headers: bearer })).json();
        const records = page['records'] as { merchantReference: string }[];
        expect(records.length).toBeLessThanOrEqual(2);
        seen.push(...records.map((record) => record.merchantReference));
        if (page['next'] === null) break;
        path = `/api/records?${statuses}&limit=2&after=${encodeURIComponent(page['next'] as string)}`;
      }
      expect(seen).toEqual(['paid-1', 'failed-1', 'unknown-1', 'dead-1', 'review-1']);
      const tooMany = await send(origin, '/api/records?limit=501', { headers: bearer });
      expect(tooMany.status).toBe(400);
      expect(tooMany.json()['errors']).toEqual({
        limit: ['limit must be a whole number from 1 to 500.'],
      });
      const forged = await send(origin, '/api/records?after=not-a-key', { headers: bearer });
      expect(forged.status).toBe(400);
      expect(forged.json()['errors']).toHaveProperty('after');
    });

    it('bad input is a 400 naming the field and rule', async () => {
      const status = await send(origin, '/api/records?status=paid', { headers: bearer });
      expect(status.status).toBe(400);
      expect(status.json()['errors']).toHaveProperty('status');
      const hours = await send(origin, '/api/summary?hours=0', { headers: bearer });
      expect(hours.status).toBe(400);
      expect(hours.json()['message']).toMatch(/hours must be a whole number from 1 to 168/);
      const product = await send(origin, '/api/records?product=loans', { headers: bearer });
      expect(product.status).toBe(400);
      expect(product.json()['errors']).toHaveProperty('product');
      const noReference = await send(origin, '/api/records/evidence', { headers: bearer });
      expect(noReference.status).toBe(400);
      expect(noReference.json()['errors']).toHaveProperty('reference');
      const notObject = await send(origin, '/api/records/retry-effect', {
        method: 'POST',
        headers: bearer,
        body: ['dead-1'],
      });
      expect(notObject.status).toBe(400);
      expect(notObject.json()['errors']).toHaveProperty('body');
    });
  });

  describe('changes: resolve a review, retry a dead effect, requeue a dead callback', () => {
    it('a page POST needs its session’s CSRF token and its own origin', async () => {
      const cookie = await session();
      const path = '/api/records/resolve';
      const body = {
        reference: 'review-1',
        outcome: 'success',
        note: 'Paid the balance at the counter',
      };
      const withoutCsrf = await send(origin, path, {
        method: 'POST',
        headers: { cookie, origin },
        body,
      });
      expect(withoutCsrf.status).toBe(403);
      const csrfOf = async (of: string) => {
        const page = await send(origin, '/', { headers: { cookie: of } });
        return /name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
      };
      const csrf = await csrfOf(cookie);
      const foreign = await send(origin, path, {
        method: 'POST',
        headers: { cookie, origin: 'http://localhost:1', 'x-csrf-token': csrf },
        body,
      });
      expect(foreign.status).toBe(403);
      // Another session's token does not fit this one.
      const otherCsrf = await csrfOf(await session());
      expect(otherCsrf).not.toBe(csrf);
      const crossed = await send(origin, path, {
        method: 'POST',
        headers: { cookie, origin, 'x-csrf-token': otherCsrf },
        body,
      });
      expect(crossed.status).toBe(403);
      expect((await store.records.get('review-1'))?.status).toBe('needs_review');
      const resolved = await send(origin, path, {
        method: 'POST',
        headers: { cookie, origin, 'x-csrf-token': csrf },
        body: { ...body, by: 'neema' },
      });
      expect(resolved.status).toBe(200);
      expect(await store.records.get('review-1')).toMatchObject({
        status: 'success',
        resolution: { status: 'success', note: body.note, by: 'neema' },
        effect: { status: 'due' },
      });
    });

    it('resolve follows the store rules: a bad decision or no note changes nothing', async () => {
      const resolve = (reference: string, body: Record<string, unknown>) =>
        send(origin, '/api/records/resolve', {
          method: 'POST',
          headers: bearer,
          body: { reference, ...body },
        });
      const noNote = await resolve('review-1', { outcome: 'success', note: '  ' });
      expect(noNote.status).toBe(400);
      expect(noNote.json()['errors']).toHaveProperty('note');
      const paid = await resolve('review-1', { outcome: 'paid', note: 'checked' });
      expect(paid.json()['errors']).toHaveProperty('outcome');
      const tooLong = await resolve('x'.repeat(129), { outcome: 'failed', note: 'checked' });
      expect(tooLong.status).toBe(400);
      expect(tooLong.json()['errors']).toHaveProperty('merchantReference');
      expect((await store.records.get('review-1'))?.status).toBe('needs_review');
      expect((await resolve('paid-1', { outcome: 'failed', note: 'oops' })).status).toBe(409);
      expect((await resolve('nobody', { outcome: 'failed', note: 'oops' })).status).toBe(404);
    });

    it('retries a dead effect and requeues a dead callback once; again is a 409 naming the state', async () => {
      const post = (path: string, body: unknown) =>
        send(origin, path, { method: 'POST', headers: bearer, body });
      const retried = await post('/api/records/retry-effect', { reference: 'dead-1' });
      expect(retried.json()).toMatchObject({ record: { effect: { status: 'due', attempts: 0 } } });
      const again = await post('/api/records/retry-effect', { reference: 'dead-1' });
      expect(again.status).toBe(409);
      expect(again.json()['message']).toMatch(/effect\.status is due, not dead/);
      const [dead] = await store.inbox.list({ status: 'dead' });
      const requeued = await post('/api/callbacks/requeue', { id: dead!.id });
      expect(requeued.json()).toMatchObject({ callback: { status: 'pending' } });
      expect((await post('/api/callbacks/requeue', { id: dead!.id })).status).toBe(409);
    });

    it('every reference the store takes: `.`, `..` and 128 characters, viewed and acted on', async () => {
      await seedOddReferences(store);
      const { dot, dots, long } = oddReferences;
      for (const reference of [dot, dots, long]) {
        const evidence = await send(
          origin,
          `/api/records/evidence?reference=${encodeURIComponent(reference)}`,
          { headers: bearer },
        );
        expect(evidence.status).toBe(200);
        expect(evidence.json()['record']).toMatchObject({ merchantReference: reference });
      }
      const post = (path: string, body: unknown) =>
        send(origin, path, { method: 'POST', headers: bearer, body });
      for (const reference of [dot, long]) {
        const resolved = await post('/api/records/resolve', {
          reference,
          outcome: 'failed',
          note: 'The customer was refunded at the counter',
        });
        expect(resolved.status).toBe(200);
        expect((await store.records.get(reference))?.status).toBe('failed');
      }
      expect((await post('/api/records/retry-effect', { reference: dots })).status).toBe(200);
      expect((await store.records.get(dots))?.effect.status).toBe('due');
      const [callback] = await store.inbox.list({ paymentReference: 'ENG-LONG' });
      expect((await post('/api/callbacks/requeue', { id: callback!.id })).status).toBe(200);
    });
  });
});

/** A clock the test moves; codes and sessions expire by it. */
function testClock() {
  let at = Date.parse('2026-12-01T08:00:00Z');
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

describe('signing in: a one-time code for an expiring session', () => {
  const store = new MemoryReferenceStore();
  const opened: Dashboard[] = [];
  async function open(options: Partial<Parameters<typeof createDashboard>[0]> = {}) {
    const dashboard = createDashboard({ store, token, port: 0, ...options });
    opened.push(dashboard);
    return { dashboard, origin: new URL(await dashboard.listen()).origin };
  }
  afterAll(async () => {
    for (const dashboard of opened) await dashboard.close();
  });
  const pathOf = (url: string) => {
    const { pathname, search } = new URL(url);
    return pathname + search;
  };
  const cookieOf = (answer: Answer) => (answer.headers['set-cookie'] as string[])[0]!;

  it('a code opens one session, once; the cookie is HttpOnly, SameSite=Strict, 12 hours', async () => {
    const { dashboard, origin } = await open();
    const address = dashboard.signInUrl();
    expect(address).toMatch(new RegExp(`^${origin}/sign-in\\?code=[\\w-]{32}$`));
    expect(address).not.toContain(token);
    const first = await send(origin, pathOf(address));
    expect(first.status).toBe(303);
    expect(cookieOf(first)).toMatch(/; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/);
    const cookie = cookieOf(first).split(';')[0]!;
    expect((await send(origin, '/api/summary', { headers: { cookie } })).status).toBe(200);
    const again = await send(origin, pathOf(address));
    expect(again.status).toBe(401);
    expect(again.json()['message']).toMatch(/spent, older than 60 seconds/);
    expect(again.headers['set-cookie']).toBeUndefined();
    // Each session is its own: nothing in the cookie is the token or derived from it alone.
    const other = cookieOf(await send(origin, pathOf(dashboard.signInUrl()))).split(';')[0]!;
    expect(other).not.toBe(cookie);
    expect(cookie).not.toContain(token);
  });

  it('a code is good for 60 seconds; a session for sessionMs', async () => {
    const clock = testClock();
    const { dashboard, origin } = await open({ now: clock.now, sessionMs: 3_600_000 });
    const late = dashboard.signInUrl();
    clock.advance(60_000);
    expect((await send(origin, pathOf(late))).status).toBe(401);
    const signedIn = await send(origin, pathOf(dashboard.signInUrl()));
    expect(cookieOf(signedIn)).toMatch(/Max-Age=3600$/);
    const cookie = cookieOf(signedIn).split(';')[0]!;
    clock.advance(3_600_000 - 1);
    expect((await send(origin, '/api/summary', { headers: { cookie } })).status).toBe(200);
    clock.advance(1);
    expect((await send(origin, '/api/summary', { headers: { cookie } })).status).toBe(401);
  });

  it('dashboards sharing a token accept each other’s sessions, not codes; a new token ends them', async () => {
    const a = await open();
    const b = await open();
    const cookie = cookieOf(await send(a.origin, pathOf(a.dashboard.signInUrl()))).split(';')[0]!;
    // Cookies ignore ports: the one cookie reaches both.
    expect((await send(b.origin, '/api/summary', { headers: { cookie } })).status).toBe(200);
    const codeOfA = new URL(a.dashboard.signInUrl()).search;
    expect((await send(b.origin, `/sign-in${codeOfA}`)).status).toBe(401);
    const renewed = await open({ token: 'another-token-0123456789abcdef' });
    const name = cookie.split('=')[0]!;
    const value = cookie.slice(name.length + 1);
    const renamed = `${cookieOf(await send(renewed.origin, pathOf(renewed.dashboard.signInUrl()))).split('=')[0]}=${value}`;
    expect(
      (await send(renewed.origin, '/api/summary', { headers: { cookie: renamed } })).status,
    ).toBe(401);
    expect((await send(renewed.origin, '/api/summary', { headers: { cookie } })).status).toBe(401);
  });

  it('close() ends the instance’s codes and sessions', async () => {
    const { dashboard, origin } = await open();
    const unused = dashboard.signInUrl();
    await dashboard.close();
    const again = createDashboard({ store, token, port: Number(new URL(origin).port) });
    opened.push(again);
    await again.listen();
    expect((await send(origin, pathOf(unused))).status).toBe(401);
  });

  it('Secure over https (a TLS proxy says so); the token in the bearer header still works', async () => {
    const { dashboard, origin } = await open();
    const secure = await send(origin, pathOf(dashboard.signInUrl()), {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(cookieOf(secure)).toMatch(/; Secure$/);
    expect((await send(origin, '/api/summary', { headers: bearer })).status).toBe(200);
  });

  it('a script with the token asks a running dashboard for a code; a session cannot', async () => {
    const { dashboard, origin } = await open();
    const asked = await send(origin, '/api/sign-in-codes', { method: 'POST', headers: bearer });
    expect(asked.status).toBe(200);
    const { url } = asked.json() as { url: string };
    expect(url).toMatch(new RegExp(`^${origin}/sign-in\\?code=`));
    const cookie = cookieOf(await send(origin, pathOf(url))).split(';')[0]!;
    const bySession = await send(origin, '/api/sign-in-codes', {
      method: 'POST',
      headers: { cookie, origin },
    });
    expect(bySession.status).toBe(403);
    expect(dashboard.urls).toEqual([`${origin}/`]);
  });
});

describe('bound beyond loopback', () => {
  const store = new MemoryReferenceStore();
  const strong = 'kV3q9-Zr_x7LmN2pQ8sT4uW6yA1bC5dE0fGhJ';

  it('refuses a token shorter than 32 characters, or one that is not random, naming token', async () => {
    for (const weak of [token, 'password'.repeat(5)]) {
      const error = await failure(
        (async () => createDashboard({ store, token: weak, host: '0.0.0.0' }))(),
      );
      expect(isConfigurationError(error) && error.option).toBe('token');
      expect((error as Error).message).toMatch(/32 random characters|random when it listens/);
    }
    // The same token is enough on loopback.
    expect(() => createDashboard({ store, token, host: '127.0.0.1' })).not.toThrow();
  });

  it('prints the addresses it is reachable at, warns, and answers them', async () => {
    const warnings: string[] = [];
    const dashboard = createDashboard({
      store,
      token: strong,
      host: '0.0.0.0',
      port: 0,
      onWarning: (message) => warnings.push(message),
    });
    try {
      const url = await dashboard.listen();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/listens on 0\.0\.0\.0: anyone who can reach/);
      expect(dashboard.urls[0]).toBe(url);
      expect(dashboard.urls.some((each) => /^http:\/\/127\.0\.0\.1:\d+\/$/.test(each))).toBe(true);
      for (const each of dashboard.urls) {
        expect(warnings[0]).toContain(each);
        const { host } = new URL(each);
        const answer = await send(each, '/api/summary', {
          headers: { ...bearer, authorization: `Bearer ${strong}`, host },
        });
        expect(answer.status).toBe(200);
      }
    } finally {
      await dashboard.close();
    }
  });

  it('a loopback address neither warns nor needs more than 16 characters', async () => {
    const warnings: string[] = [];
    const dashboard = createDashboard({
      store,
      token,
      port: 0,
      onWarning: (m) => warnings.push(m),
    });
    await dashboard.listen();
    await dashboard.close();
    expect(warnings).toEqual([]);
  });
});

describe('createDashboard', () => {
  it('refuses a short token or a session length out of range by name, and has no address before listen()', async () => {
    const store = new MemoryReferenceStore();
    const error = await failure((async () => createDashboard({ store, token: 'short' }))());
    expect(isConfigurationError(error) && error.option).toBe('token');
    const session = await failure((async () => createDashboard({ store, sessionMs: 1000 }))());
    expect(isConfigurationError(session) && session.option).toBe('sessionMs');
    expect(() => createDashboard({ store }).url).toThrow(/until listen\(\)/);
  });
});

describe('pesakit dashboard', () => {
  it('prints the address and a one-time sign-in address, another on Enter, and closes on Ctrl-C with exit 0', async () => {
    const file = sqliteFile();
    const seeded = await SqliteReferenceStore.open(file);
    await seedOperations(seeded);
    await seeded.close();
    const ready = /^pesakit dashboard on (http:\/\/127\.0\.0\.1:\d+)\/$/;
    const signIn =
      /^sign in \(once, within 60 s\): (http:\/\/127\.0\.0\.1:\d+\/sign-in\?code=\S+)$/;
    const codes: string[] = [];
    const visits: Promise<Answer>[] = [];
    const run = await runCli(
      ['dashboard', '--store', file, '--port', '0'],
      { PESAKIT_DASHBOARD_TOKEN: token },
      {
        stdin: true,
        onStdoutLine: (line, child) => {
          const address = signIn.exec(line)?.[1];
          if (address === undefined) return;
          codes.push(address);
          const { origin, pathname, search } = new URL(address);
          const visit = send(origin, pathname + search);
          visits.push(visit);
          if (codes.length === 1) {
            visit.then(() => child.stdin?.write('\n'));
            return;
          }
          // The second address, asked for with Enter, works too; then --sign-in asks for a third.
          const port = new URL(origin).port;
          const asked = runCli(['dashboard', '--sign-in', '--port', port], {
            PESAKIT_DASHBOARD_TOKEN: token,
          });
          visits.push(
            asked.then(async (other) => {
              const third = signIn.exec(other.stdout.trim())?.[1];
              expect(third).toBeDefined();
              const url = new URL(third!);
              return send(origin, url.pathname + url.search);
            }),
          );
          Promise.all(visits).finally(() => child.kill('SIGINT'));
        },
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(ready);
    expect(run.stdout).not.toContain(token);
    expect(codes).toHaveLength(2);
    expect(codes[0]).not.toBe(codes[1]);
    const answers = await Promise.all(visits);
    expect(answers.map((answer) => answer.status)).toEqual([303, 303, 303]);
  }, 90_000);

  it('--sign-in without the token is a usage error naming PESAKIT_DASHBOARD_TOKEN', async () => {
    const run = await runCli(['dashboard', '--sign-in', '--port', '1'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/set PESAKIT_DASHBOARD_TOKEN/);
  }, 60_000);
});
