import { afterEach, beforeEach } from 'vitest';
import { type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { temporaryDirectory } from '../reconciler-cli/harness.js';

/**
 * A fresh sandbox and an empty directory for every test of the file that calls this (at its
 * top level): the bulk CLI's tests write their input and results files there.
 */
export function sandboxAndDirectoryPerTest(): {
  harness: Harness;
  directory: { path: string; remove: () => void };
} {
  const each = {} as ReturnType<typeof sandboxAndDirectoryPerTest>;
  beforeEach(async () => {
    each.harness = await startHarness();
    each.directory = temporaryDirectory();
  });
  afterEach(async () => {
    await each.harness.close();
    each.directory.remove();
  });
  return each;
}
