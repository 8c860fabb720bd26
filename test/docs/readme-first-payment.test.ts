import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { closedAfterEach, sandboxClient } from '../helpers/sandbox-lifetime.js';

// README.md's "A first payment" points at `npx pesakit sandbox`, which starts with no
// accounts: the README's own commands must create the account its code logs in with, or a
// newcomer running it as written gets a 401 AuthenticationError.

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## A first payment'),
  readme.indexOf('## Documentation'),
);

const opened = closedAfterEach<Sandbox>();

describe("README's first payment, against a fresh sandbox", () => {
  it('creates, with its own curl, the account its code logs in with, and the payment goes out', async () => {
    const curl = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    expect(curl, 'the section has the commands that create the account').toMatch(
      /_control\/accounts/,
    );
    const body = JSON.parse(/-d '(\{.*\})'/.exec(curl)?.[1] ?? 'null') as Record<string, string>;
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const [, email, password] =
      /collection: \{ email: '([^']+)', password: '([^']+)' \}/.exec(code) ?? [];
    expect(body).toMatchObject({ product: 'collection', email, password });

    const sandbox = await createSandbox({ autoSettle: false });
    opened.current = sandbox;
    const url = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    const created = await fetch(`${url}/api/sandbox/_control/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    const pesakit = sandboxClient(url, {
      credentials: { collection: { email: email!, password: password! } },
      store: new MemoryReferenceStore(),
    });
    const payment = await pesakit.collection.initiateMno({ amount: 15000, msisdn: '255754123456' });
    expect(payment.controlNumber).toMatch(/^\d+$/);
  });
});
