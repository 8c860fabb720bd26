import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bearer, field, PASSWORD, type RunningSandbox, startSandbox } from './support.js';

let s: RunningSandbox;
beforeEach(async () => {
  s = await startSandbox();
});
afterEach(() => s.close());

const person = {
  name: 'Asha Mushi',
  email: 'asha@duka.tz',
  phone: '255754000111',
  password: PASSWORD,
};

describe('airtime accounts: register, activation, login', () => {
  it('registers with role 2 and status pending (201), and refuses a duplicate email (422)', async () => {
    const first = await s.call('POST', '/api/sandbox/airtime/register', person);
    expect(first.status).toBe(201);
    expect(field(first, 'user')).toMatchObject({
      role_id: 2,
      status: 'pending',
      email: person.email,
    });
    const again = await s.call('POST', '/api/sandbox/airtime/register', person);
    expect(again.status).toBe(422);
    expect(field(again, 'errors')).toHaveProperty('email');
  });

  it('refuses login of a role-2 user who is not active with 403, and admits it once activated', async () => {
    await s.call('POST', '/api/sandbox/airtime/register', person);
    const creds = { email: person.email, password: PASSWORD };
    expect((await s.call('POST', '/api/sandbox/airtime/login', creds)).status).toBe(403);
    await s.control('accounts', { product: 'airtime', email: person.email, status: 'active' });
    const login = await s.call('POST', '/api/sandbox/airtime/login', creds);
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ token_type: 'Bearer', user: { wallet: { balance: 0 } } });
  });

  it('answers wrong credentials with 401, for a wrong password and an unknown email alike', async () => {
    await s.account('airtime', person.email);
    const wrong = await s.call('POST', '/api/sandbox/airtime/login', {
      email: person.email,
      password: 'nope-nope',
    });
    const unknown = await s.call('POST', '/api/sandbox/airtime/login', {
      email: 'who@x.tz',
      password: PASSWORD,
    });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(field(wrong, 'message')).toBe(field(unknown, 'message'));
  });
});

describe('disbursement accounts: users with status unverified or rejected are refused (401)', () => {
  it('registers unverified with a token (201); login is refused until verified', async () => {
    const reg = await s.call('POST', '/api/sandbox/disbursement/register', person);
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ user: { status: 'unverified' }, token: expect.any(String) });
    const creds = { email: person.email, password: PASSWORD };
    expect((await s.call('POST', '/api/sandbox/disbursement/login', creds)).status).toBe(401);
    // The register token is refused too while the account is unverified.
    const token = field(reg, 'token') as string;
    expect(
      (await s.call('GET', '/api/sandbox/disbursement/user', undefined, bearer(token))).status,
    ).toBe(401);
    await s.control('accounts', { product: 'disbursement', email: person.email, status: 'active' });
    const login = await s.call('POST', '/api/sandbox/disbursement/login', creds);
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ user: { status: 'active' }, wallet: { balance: 0 } });
    expect(
      (await s.call('GET', '/api/sandbox/disbursement/user', undefined, bearer(token))).status,
    ).toBe(200);
  });

  it('refuses a rejected user at login, and its existing tokens stop working', async () => {
    const token = await s.account('disbursement', person.email);
    await s.control('accounts', {
      product: 'disbursement',
      email: person.email,
      status: 'rejected',
    });
    const login = await s.call('POST', '/api/sandbox/disbursement/login', {
      email: person.email,
      password: PASSWORD,
    });
    expect(login.status).toBe(401);
    expect(
      (await s.call('GET', '/api/sandbox/disbursement/user', undefined, bearer(token))).status,
    ).toBe(401);
  });
});

describe('collection accounts: created through the control API, then login', () => {
  it('logs in with a Bearer token and the user', async () => {
    await s.control('accounts', {
      product: 'collection',
      email: 'shop@duka.tz',
      password: PASSWORD,
    });
    const login = await s.call('POST', '/api/sandbox/login', {
      email: 'shop@duka.tz',
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ token_type: 'Bearer', user: { email: 'shop@duka.tz' } });
  });
});

describe('tokens: a token works only for the product that issued it; missing, malformed, unknown or revoked → 401', () => {
  it('refuses an airtime token on the disbursement and collection APIs', async () => {
    const airtime = await s.account('airtime', 'a@duka.tz');
    await s.account('disbursement', 'a@duka.tz');
    expect(
      (await s.call('GET', '/api/sandbox/airtime/user', undefined, bearer(airtime))).status,
    ).toBe(200);
    expect(
      (await s.call('GET', '/api/sandbox/disbursement/user', undefined, bearer(airtime))).status,
    ).toBe(401);
    const status = await s.call(
      'POST',
      '/api/sandbox/transaction/status',
      { ref_id: 'x' },
      bearer(airtime),
    );
    expect(status.status).toBe(401);
  });

  it.each([
    ['missing', {}],
    ['malformed', { authorization: 'Token abc' }],
    ['unknown', { authorization: 'Bearer 999|notarealtokenvalue' }],
  ])('answers a %s token with 401 and a message', async (_name, headers) => {
    const answer = await s.call('GET', '/api/sandbox/disbursement/user', undefined, headers);
    expect(answer.status).toBe(401);
    expect(field(answer, 'message')).toMatch(/Unauthenticated/);
  });

  it('revokes the token at logout (disbursement and collection)', async () => {
    const token = await s.account('disbursement', 'd@duka.tz');
    expect(
      (await s.call('POST', '/api/sandbox/disbursement/logout', undefined, bearer(token))).status,
    ).toBe(200);
    expect(
      (await s.call('GET', '/api/sandbox/disbursement/user', undefined, bearer(token))).status,
    ).toBe(401);
    const collection = await s.account('collection', 'c@duka.tz');
    expect(
      (await s.call('POST', '/api/sandbox/logout', undefined, bearer(collection))).status,
    ).toBe(200);
    const after = await s.call(
      'POST',
      '/api/sandbox/transaction/status',
      { ref_id: 'x' },
      bearer(collection),
    );
    expect(after.status).toBe(401);
  });
});

describe('passwords: stored hashed; no response ever contains a password or its hash', () => {
  it('never shows the password or a scrypt hash in any account answer', async () => {
    const answers = [
      await s.call('POST', '/api/sandbox/airtime/register', person),
      await s.control('accounts', { product: 'airtime', email: person.email, status: 'active' }),
      await s.call('POST', '/api/sandbox/airtime/login', {
        email: person.email,
        password: PASSWORD,
      }),
      await s.call('POST', '/api/sandbox/disbursement/register', person),
      await s.control('accounts', {
        product: 'disbursement',
        email: person.email,
        status: 'active',
      }),
      await s.call('POST', '/api/sandbox/disbursement/login', {
        email: person.email,
        password: PASSWORD,
      }),
      await s.control('accounts', {
        product: 'collection',
        email: person.email,
        password: PASSWORD,
      }),
      await s.call('POST', '/api/sandbox/login', {
        email: person.email,
        password: 'wrong-password',
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toContain(PASSWORD);
      expect(answer.text).not.toMatch(/scrypt|password_hash|passwordHash/i);
    }
  });
});
