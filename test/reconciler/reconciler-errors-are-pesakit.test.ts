import { describe, expect, it } from 'vitest';
import { isConfigurationError, isPesakitError, MemoryReferenceStore } from '../../src/index.js';
import { harnessPerFile } from '../helpers/sandbox-lifetime.js';

// Checks docs/errors.md ("Everything pesakit throws is a PesakitError")
// against the reconciler: `runOnce()` after `close()` rejected with a bare `Error`, and a check
// of a product the client has no credentials for emitted a bare `Error` — a merchant's
// `isPesakitError(error)` branch (the documented way to tell pesakit's errors from its own)
// missed both. They are now a PesakitError and a ConfigurationError naming the credentials.

const sandbox = harnessPerFile();

describe('the reconciler’s own errors are PesakitErrors', () => {
  it('runOnce() after close()', async () => {
    const reconciler = sandbox.harness
      .client({ store: new MemoryReferenceStore() })
      .createReconciler();
    await reconciler.close();
    const error = await reconciler.runOnce().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isPesakitError(error)).toBe(true);
    expect(String(error)).toMatch(/closed/);
  });

  it('a record of a product without credentials: a ConfigurationError naming them', async () => {
    const store = new MemoryReferenceStore();
    const payment = await sandbox.harness
      .client({ store })
      .collection.initiateMno(
        { amount: 1000, msisdn: '255754123456' },
        { merchantReference: 'no-creds' },
      );
    expect(payment.status).toBe('pending');
    const reconciler = sandbox.harness
      .client({ store, credentials: { airtime: { email: 'a@b.tz', password: 'secret-password' } } })
      .createReconciler();
    const errors: unknown[] = [];
    reconciler.on('error', (error) => errors.push(error));
    const summary = await reconciler.runOnce({ force: true });
    expect(summary.errors).toBe(1);
    expect(isConfigurationError(errors[0])).toBe(true);
    expect((errors[0] as { option: string }).option).toBe('credentials.collection');
    await reconciler.close();
  });
});
