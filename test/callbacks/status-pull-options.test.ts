import { describe, expect, it } from 'vitest';
import { Pesakit, verifyCheckoutReturn } from '../../src/client.js';
import { isConfigurationError } from '../../src/errors/configuration-error.js';
import { Airtime } from '../../src/resources/airtime.js';
import { Collection } from '../../src/resources/collection.js';
import { Disbursement } from '../../src/resources/disbursement.js';

// A client has one status puller: its receivers and verifyCheckoutReturn share its window and its
// rate limit, set once, on the client.

const failureOf = (build: () => unknown) => {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

describe('the status pull limits are options of new Pesakit(...)', () => {
  it('a client takes pullsPerSecond, pullConcurrency and pullWindowMs', () => {
    const pesakit = new Pesakit({
      baseUrl: 'http://127.0.0.1:9',
      pullsPerSecond: 5,
      pullConcurrency: 2,
      pullWindowMs: 60_000,
    });
    expect(pesakit.createCallbackReceiver().toJSON().options).not.toHaveProperty('pullsPerSecond');
  });

  it.each([
    ['pullsPerSecond', 0],
    ['pullConcurrency', 1.5],
    ['pullWindowMs', -1],
    ['pullWindowMs', Number.POSITIVE_INFINITY],
  ] as const)('%s: %s is a ConfigurationError naming it', (option, value) => {
    const failure = failureOf(
      () => new Pesakit({ baseUrl: 'http://127.0.0.1:9', [option]: value }),
    );
    expect(isConfigurationError(failure)).toBe(true);
    expect(failure).toMatchObject({ option });
    expect(String(failure)).toContain(`new Pesakit: ${option} must be a positive`);
  });

  it.each(['pullsPerSecond', 'pullConcurrency', 'pullWindowMs'])(
    "a receiver given %s refuses it, naming the client's option",
    (option) => {
      const pesakit = new Pesakit({ baseUrl: 'http://127.0.0.1:9' });
      const failure = failureOf(() =>
        pesakit.createCallbackReceiver({ [option]: 1 } as Record<string, number>),
      );
      expect(isConfigurationError(failure)).toBe(true);
      expect(failure).toMatchObject({ option });
      expect(String(failure)).toContain(`pass it to new Pesakit({ ${option} })`);
    },
  );

  it('verifyCheckoutReturn refuses anything but a client', async () => {
    const failure = await verifyCheckoutReturn({ store: {} } as never, {}).catch((error) => error);
    expect(isConfigurationError(failure)).toBe(true);
    expect(failure).toMatchObject({ option: 'pesakit' });
  });
});

describe('no hidden wiring', () => {
  it("building a client leaves the resource classes' prototypes as they are", () => {
    const before = [Collection, Airtime, Disbursement].map((resource) =>
      Object.getOwnPropertyNames(resource.prototype).map(
        (name) => Object.getOwnPropertyDescriptor(resource.prototype, name)?.value,
      ),
    );
    const pesakit = new Pesakit({ baseUrl: 'http://127.0.0.1:9' });
    const after = [Collection, Airtime, Disbursement].map((resource) =>
      Object.getOwnPropertyNames(resource.prototype).map(
        (name) => Object.getOwnPropertyDescriptor(resource.prototype, name)?.value,
      ),
    );
    expect(after).toEqual(before);
    // The client's own resources are traced (docs/observability.md), and print as before.
    expect(pesakit.collection.status).not.toBe(Collection.prototype.status);
    expect(Object.keys(pesakit.collection)).toEqual([]);
  });
});
