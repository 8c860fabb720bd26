import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runReconcile } from '../../src/cli/reconcile/run-reconcile.js';
import { isConfigurationError, Pesakit } from '../../src/index.js';
import { captureIo, temporaryDirectory } from '../reconciler-cli/harness.js';

// Secrets never appear in errors or output (DESIGN.md decision 10), and a mistake in
// configuration is a clear error before anything is stored or sent.

describe('a base URL that carries credentials (http://user:password@host)', () => {
  it('is a ConfigurationError at construction, naming the option, never echoing the password', () => {
    // Left to fetch, every call would throw a TypeError quoting the whole URL, password
    // included, and a money call would write its intent for a request that cannot be built.
    let thrown: unknown;
    try {
      new Pesakit({ environment: 'sandbox', baseUrl: 'http://shop:hunter2@127.0.0.1:4010' });
    } catch (error) {
      thrown = error;
    }
    expect(isConfigurationError(thrown)).toBe(true);
    const error = thrown as Error & { option: string };
    expect(error.option).toBe('baseUrl');
    expect(error.message).toMatch(/user name or password/);
    expect(`${error.message} ${error.stack}`).not.toContain('hunter2');
  });

  it('in production, per product too', () => {
    let thrown: unknown;
    try {
      new Pesakit({
        environment: 'production',
        baseUrls: { collection: 'https://:hunter2@pay.example.tz' },
        credentials: { collection: { email: 'shop@example.tz', password: 'p' } },
      });
    } catch (error) {
      thrown = error;
    }
    expect(isConfigurationError(thrown)).toBe(true);
    expect((thrown as { option: string }).option).toBe('baseUrls.collection');
    expect(String((thrown as Error).message)).not.toContain('hunter2');
  });
});

const directory = temporaryDirectory();
afterAll(() => directory.remove());
const storePath = join(directory.path, 'exists.sqlite');
writeFileSync(storePath, '');
const credentials = {
  PESAKIT_COLLECTION_EMAIL: 'shop@example.tz',
  PESAKIT_COLLECTION_PASSWORD: 'sandbox-pass',
};

async function reconcile(flags: Record<string, unknown>, env: Record<string, string> = {}) {
  const io = captureIo({ ...credentials, ...env });
  const code = await runReconcile(
    { environment: 'sandbox', baseUrl: 'http://127.0.0.1:9', storeFromArgv: true, ...flags },
    io,
  );
  return { code, output: `${io.out.text}${io.err.text}` };
}

describe('pesakit reconcile: passwords in URLs', () => {
  it('refuses a --store URL whose query carries the password, without echoing it', async () => {
    for (const key of ['password', 'sslpassword']) {
      const run = await reconcile({ store: `postgres://app@127.0.0.1:1/payments?${key}=hunter2` });
      expect(run.code).toBe(2);
      expect(run.output).toMatch(/PGPASSWORD|PESAKIT_STORE/);
      expect(run.output).not.toContain('hunter2');
    }
  });

  it('a PESAKIT_STORE URL with ?password= may be used, but its password is never printed', async () => {
    const run = await reconcile(
      { store: 'postgres://app@127.0.0.1:1/payments?password=hunter2', storeFromArgv: false },
      {},
    );
    expect(run.code).toBe(1); // nothing listens on port 1
    expect(run.output).toContain('cannot open the store');
    expect(run.output).not.toContain('hunter2');
  });

  it('refuses a --base-url with credentials as a usage error (exit 2), never printing them', async () => {
    const run = await reconcile({
      store: storePath,
      baseUrl: 'http://shop:hunter2@127.0.0.1:9',
    });
    expect(run.code).toBe(2);
    expect(run.output).toMatch(/--base-url|baseUrl/);
    expect(run.output).not.toContain('hunter2');
  });
});
