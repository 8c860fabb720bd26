import { afterAll, afterEach, beforeAll } from 'vitest';
import { Pesakit, type PesakitOptions } from '../../src/client.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { harnessFetch } from './openapi-contract.js';
import { type Harness, startHarness } from './sandbox-harness.js';

/**
 * How long a test's sandbox lives, said once instead of as hooks in each file: the outside
 * testers' files (test/outside/) each wrote the same `let harness; beforeAll…; afterAll…` or
 * `let sandbox | undefined; afterEach(close, clear)` around a client built by hand.
 */

/** One harness for the whole file: started before its tests, closed after them. */
export function harnessPerFile(options: SandboxOptions = {}): { readonly harness: Harness } {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await startHarness(options);
  });
  afterAll(() => harness?.close());
  return {
    get harness() {
      if (!harness) throw new Error('harnessPerFile: the harness is started in beforeAll.');
      return harness;
    },
  };
}

/**
 * A slot for what a test opens itself (a harness, a bare sandbox): whatever is in it after a
 * test is closed — also when the test failed half-way — and the slot emptied. A test that
 * closes it early empties the slot itself.
 */
export function closedAfterEach<T extends { close(): Promise<unknown> }>(): {
  current: T | undefined;
} {
  const slot: { current: T | undefined } = { current: undefined };
  afterEach(async () => {
    await slot.current?.close();
    slot.current = undefined;
  });
  return slot;
}

/** A client of a sandbox at `baseUrl` (one the test started, or a closed port). */
export function sandboxClient(
  baseUrl: string,
  options: Omit<PesakitOptions, 'environment' | 'baseUrl'>,
): Pesakit {
  const checked = options.fetch === undefined ? harnessFetch() : undefined;
  return new Pesakit({
    environment: 'sandbox',
    baseUrl,
    ...(checked !== undefined ? { fetch: checked } : {}),
    ...options,
  });
}
