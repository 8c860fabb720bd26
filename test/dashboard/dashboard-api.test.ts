import { request as httpRequest } from 'node:http';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createDashboard, type Dashboard } from '../../src/dashboard.js';
import { isConfigurationError } from '../../src/errors/configuration-error.js';
import { MemoryReferenceStore } from '../../src/index.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import type { ReferenceStore } from '../../src/references/types.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { customer, seedOperations } from '../helpers/dashboard-seed.js';
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

  /** The cookie a first visit with the token sets. */
  async function session(): Promise<string> {
    const visit = await send(origin, `/?token=${token}`);
    expect(visit.status).toBe(303);
    expect(visit.headers['location']).toBe('/');
    const [cookie] = visit.headers['set-cookie'] as string[];
    expect(cookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\//);
    return cookie!.split(';')[0]!;
  }

  describe('every request needs the token', () => {
    it('refuses without it, and with a wrong one', async () => {
      expect(dashboard.url).toBe(`${origin}/?token=${token}`);
      for (const path of ['/', '/dashboard.js', '/api/summary', '/api/records']) {
        expect((await send(origin, path)).status).toBe(401);
      }
      expect((await send(origin, '/?token=not-the-token')).status).toBe(401);
      const wrong = { authorization: 'Bearer test-token-0123456789abcdeX' };
      expect((await send(origin, '/api/summary', { headers: wrong })).status).toBe(401);
    });

    it('a first visit trades the token for a cookie; the page has its CSP and no inline script', async () => {
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
      expect(waiting.text).toContain('255******456');
      expect(waiting.text).not.toContain(customer);
      const payouts = await send(origin, '/api/records?product=disbursement', { headers: bearer });
      expect(payouts.json()).toEqual({ records: [] });
      const evidence = await send(origin, '/api/records/review-1', { headers: bearer });
      expect(evidence.json()).toMatchObject({
        record: { review: { reason: 'amount_mismatch' }, lastPayload: { amount: 150 } },
        callbacks: [{ claim: { paymentReference: 'ENG-REVIEW-1' } }],
        checks: [],
      });
      expect(evidence.text).not.toContain(customer);
      expect((await send(origin, '/api/records/nobody', { headers: bearer })).status).toBe(404);
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
    });
  });

  describe('changes: resolve a review, retry a dead effect, requeue a dead callback', () => {
    it('a page POST needs the CSRF token and its own origin', async () => {
      const cookie = await session();
      const path = '/api/records/review-1/resolve';
      const body = { outcome: 'success', note: 'Paid the balance at the counter' };
      const withoutCsrf = await send(origin, path, {
        method: 'POST',
        headers: { cookie, origin },
        body,
      });
      expect(withoutCsrf.status).toBe(403);
      const page = await send(origin, '/', { headers: { cookie } });
      const csrf = /name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
      const foreign = await send(origin, path, {
        method: 'POST',
        headers: { cookie, origin: 'http://localhost:1', 'x-csrf-token': csrf },
        body,
      });
      expect(foreign.status).toBe(403);
      expect((await store.get('review-1'))?.status).toBe('needs_review');
      const resolved = await send(origin, path, {
        method: 'POST',
        headers: { cookie, origin, 'x-csrf-token': csrf },
        body: { ...body, by: 'neema' },
      });
      expect(resolved.status).toBe(200);
      expect(await store.get('review-1')).toMatchObject({
        status: 'success',
        resolution: { status: 'success', note: body.note, by: 'neema' },
        effect: { status: 'due' },
      });
    });

    it('resolve follows the store rules: a bad decision or no note changes nothing', async () => {
      const resolve = (ref: string, body: unknown) =>
        send(origin, `/api/records/${ref}/resolve`, { method: 'POST', headers: bearer, body });
      const noNote = await resolve('review-1', { outcome: 'success', note: '  ' });
      expect(noNote.status).toBe(400);
      expect(noNote.json()['errors']).toHaveProperty('note');
      const paid = await resolve('review-1', { outcome: 'paid', note: 'checked' });
      expect(paid.json()['errors']).toHaveProperty('outcome');
      expect((await resolve('review-1', [1])).status).toBe(400);
      expect((await store.get('review-1'))?.status).toBe('needs_review');
      expect((await resolve('paid-1', { outcome: 'failed', note: 'oops' })).status).toBe(409);
      expect((await resolve('nobody', { outcome: 'failed', note: 'oops' })).status).toBe(404);
    });

    it('retries a dead effect and requeues a dead callback once; again is a 409 naming the state', async () => {
      const post = (path: string) => send(origin, path, { method: 'POST', headers: bearer });
      const retried = await post('/api/records/dead-1/retry-effect');
      expect(retried.json()).toMatchObject({ record: { effect: { status: 'due', attempts: 0 } } });
      const again = await post('/api/records/dead-1/retry-effect');
      expect(again.status).toBe(409);
      expect(again.json()['message']).toMatch(/effect\.status is due, not dead/);
      const [dead] = await store.inbox.list({ status: 'dead' });
      const requeued = await post(`/api/callbacks/${dead!.id}/requeue`);
      expect(requeued.json()).toMatchObject({ callback: { status: 'pending' } });
      expect((await post(`/api/callbacks/${dead!.id}/requeue`)).status).toBe(409);
    });
  });
});

describe('createDashboard', () => {
  it('refuses a short token by name, and has no address before listen()', async () => {
    const store = new MemoryReferenceStore();
    const error = await failure((async () => createDashboard({ store, token: 'short' }))());
    expect(isConfigurationError(error) && error.option).toBe('token');
    expect(() => createDashboard({ store }).url).toThrow(/until listen\(\)/);
  });
});

describe('pesakit dashboard', () => {
  it('prints the address with its token, serves the store, and closes on Ctrl-C with exit 0', async () => {
    const file = sqliteFile();
    const seeded = await SqliteReferenceStore.open(file);
    await seedOperations(seeded);
    await seeded.close();
    let summary: Promise<Answer> | undefined;
    const ready = /^pesakit dashboard on (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)$/;
    const run = await runCli(
      ['dashboard', '--store', file, '--port', '0'],
      { PESAKIT_DASHBOARD_TOKEN: token },
      {
        onStdoutLine: (line, child) => {
          const origin = ready.exec(line)?.[1];
          if (origin === undefined) return;
          summary = send(origin, '/api/summary', { headers: bearer });
          summary.finally(() => child.kill('SIGINT'));
        },
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(ready);
    expect(run.stdout).toContain(`?token=${token}`);
    expect((await summary)?.json()['counts']).toHaveLength(4);
  }, 60_000);
});
