import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import type { Product } from '../../src/schemas/product.js';

/** What a sandbox route answered. */
export interface Answer {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

/** One top-level field of a JSON answer. */
export function field(answer: Answer, name: string): unknown {
  return (answer.body as Record<string, unknown> | null)?.[name];
}

/** A sandbox listening on loopback, port 0, with a small HTTP client around it. */
export interface RunningSandbox {
  sandbox: Sandbox;
  url: string;
  call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer>;
  /** POST to `/api/sandbox/_control/<path>` (GET when body is undefined and get is true). */
  control(path: string, body?: unknown, method?: 'GET' | 'POST'): Promise<Answer>;
  /** Creates an active account with a wallet balance and logs it in; returns its token. */
  account(product: Product, email: string, balance?: number): Promise<string>;
  close(): Promise<void>;
}

export const PASSWORD = 'correct-horse-battery';

/** Starts a sandbox; settlement is manual unless the options say otherwise. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await createSandbox({ autoSettle: false, ...options });
  const url = await sandbox.listen({ port: 0 });
  const call: RunningSandbox['call'] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json', ...headers };
    }
    const response = await fetch(`${url}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (the checkout page); keep the text
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  };
  const controlHeaders: Record<string, string> = options.controlKey
    ? { 'x-control-key': options.controlKey }
    : {};
  const control: RunningSandbox['control'] = (path, body, method = 'POST') =>
    call(method, `/api/sandbox/_control/${path}`, body, controlHeaders);
  const prefixes: Record<Product, string> = {
    collection: '/api/sandbox',
    airtime: '/api/sandbox/airtime',
    disbursement: '/api/sandbox/disbursement',
  };
  const account: RunningSandbox['account'] = async (product, email, balance) => {
    const created = await control('accounts', { product, email, password: PASSWORD });
    if (created.status !== 201) throw new Error(`account setup failed: ${created.text}`);
    if (balance !== undefined && product !== 'collection') {
      await control('wallets/credit', { product, email, amount: balance });
    }
    const login = await call('POST', `${prefixes[product]}/login`, { email, password: PASSWORD });
    if (login.status !== 200) throw new Error(`login failed: ${login.text}`);
    return field(login, 'token') as string;
  };
  return { sandbox, url, call, control, account, close: () => sandbox.close() };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Polls `check` until it returns a value, at most `attempts` times, one event-loop turn apart. */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  attempts = 2000,
): Promise<T> {
  for (let i = 0; i < attempts; i += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('condition not reached within the bound');
}
