import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/openapi/index.js';
import { runNode } from '../../helpers/run-node.js';
import { packageVersion } from './documents.js';

function runCli(args: string[]) {
  return runNode(['--import', 'tsx', 'src/cli/index.ts', 'openapi', ...args]);
}

describe('CLI: pesakit openapi', () => {
  it('prints the sandbox document as JSON, versioned from package.json', async () => {
    const { code, stdout } = await runCli([]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(
      buildOpenApiDocument({ environment: 'sandbox', version: packageVersion }),
    );
  });

  it('prints one product in production with --environment production --product', async () => {
    const { code, stdout } = await runCli(['--environment', 'production', '--product', 'airtime']);
    expect(code).toBe(0);
    const document = JSON.parse(stdout) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/customer/payments');
    expect(Object.keys(document.paths)).toContain('/api/login');
  });

  it('refuses production without --product, saying why: a usage error, exit 2', async () => {
    const { code, stdout, stderr } = await runCli(['--environment', 'production']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/production document covers one product.*--product/s);
  });

  it('writes the document to --out and nothing to stdout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pesakit-openapi-'));
    try {
      const out = join(dir, 'openapi.json');
      const { code, stdout } = await runCli(['--out', out]);
      expect(code).toBe(0);
      expect(stdout).toBe('');
      expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ openapi: '3.1.0' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
