import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
/** The case a store without compare-and-set fails, under `import` and `require` alike. */
const raceCase =
  'effects: the final transition is the claim; the handler runs until it completes › exactly one of many concurrent final transitions wins';

// `npm test` builds before it runs the suite, so dist/ is always the code under test here.
describe('the built package', () => {
  it('has been built', () => {
    expect(existsSync(`${root}/dist/index.js`)).toBe(true);
    expect(existsSync(`${root}/dist/index.cjs`)).toBe(true);
  });

  it('imports from ESM, makes a real call through the sandbox, and verifies a store with pesakit/testing', async () => {
    const { stdout } = await run(process.execPath, [`${here}/esm-consumer.mjs`], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({
      msisdn: '255754123456',
      provider: 'airtel',
      signed: true,
      validation: true,
      middleware: ['function', 415],
      sharedClasses: true,
      otel: 'function',
      storeKit: { failed: [], skipped: 1, all: true, broken: [raceCase] },
      verified: true,
    });
  });

  it('requires from CJS: every feature works (ESM-only dependencies are bundled, pesakit/testing verifies a store), one copy of each class', async () => {
    const { stdout } = await run(process.execPath, [`${here}/cjs-consumer.cjs`], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({
      msisdn: '255713000111',
      provider: 'vodacom',
      signed: true,
      validation: true,
      middleware: ['function', 'pesakit'],
      reconciled: 'object',
      sharedClasses: true,
      otel: 'function',
      storeKit: { failed: [], skipped: 1, all: true, broken: [raceCase] },
      verified: true,
    });
  });

  it('runs pesakit/testing under node --test, one test per case', async () => {
    const { stdout } = await run(process.execPath, ['--test', `${here}/node-test-consumer.mjs`], {
      cwd: root,
    });
    const count = (label: string) =>
      Number(new RegExp(`^# ${label} (\\d+)$`, 'm').exec(stdout)?.[1]);
    expect(count('pass')).toBeGreaterThan(150);
    expect(count('fail')).toBe(0);
  }, 60_000);

  it('passes publint', async () => {
    const { stdout } = await run(
      process.execPath,
      [`${root}/node_modules/publint/src/cli.js`, '--strict'],
      {
        cwd: root,
      },
    );
    expect(stdout).not.toMatch(/error/i);
  }, 60_000);
});
