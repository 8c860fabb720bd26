import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './harness.js';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('pesakit: the command line itself', () => {
  it('--version prints the package version and exits 0', async () => {
    const run = await runCli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  }, 60_000);

  it('no command is a usage error: the help on stderr, exit 2', async () => {
    const run = await runCli([]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Usage: pesakit/);
  }, 60_000);

  it('an unknown command is a usage error: exit 2, naming it', async () => {
    const run = await runCli(['reconcil']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command 'reconcil'/);
  }, 60_000);

  it('--help lists the environment variables each command reads', async () => {
    const reconcile = await runCli(['reconcile', '--help']);
    expect(reconcile.code).toBe(0);
    for (const name of [
      'PESAKIT_STORE',
      'PESAKIT_STORE_SCHEMA',
      'PESAKIT_BASE_URL',
      'PESAKIT_COLLECTION_EMAIL',
      'PESAKIT_DISBURSEMENT_PASSWORD',
      'PESAKIT_AIRTIME_EMAIL',
      'PESAKIT_API_KEY',
      'PESAKIT_COLLECTION_BASE_URL',
    ]) {
      expect(reconcile.stdout).toContain(name);
    }
    const bulk = await runCli(['airtime', 'bulk', '--help']);
    expect(bulk.stdout).toContain('PESAKIT_AIRTIME_EMAIL');
    expect(bulk.stdout).toContain('PESAKIT_AIRTIME_PASSWORD');
    expect(bulk.stdout).toContain('PESAKIT_STORE');
    expect(bulk.stdout).not.toContain('PESAKIT_COLLECTION_EMAIL');
    const list = await runCli(['review', 'list', '--help']);
    expect(list.stdout).toContain('PESAKIT_STORE_SCHEMA');
    expect(list.stdout).not.toContain('PESAKIT_COLLECTION_EMAIL');
    const dashboard = await runCli(['dashboard', '--help']);
    expect(dashboard.stdout).toContain('PESAKIT_DASHBOARD_TOKEN');
    expect(dashboard.stdout).toContain('PESAKIT_STORE_SCHEMA');
  }, 120_000);
});
