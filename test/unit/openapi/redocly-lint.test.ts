import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// docs/openapi.json passes Redocly's recommended rules (redocly.yaml): every operation has its
// security (`[]` where public), its 4xx answers, no undefined reference. A rule turned off is
// turned off in redocly.yaml with its reason.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const cli = fileURLToPath(
  new URL('../../../node_modules/@redocly/cli/bin/cli.js', import.meta.url),
);

describe('redocly lint', () => {
  it('finds no error and no warning in docs/openapi.json', { timeout: 60_000 }, async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [cli, 'lint', '--format', 'json'],
      { cwd: root, env: { ...process.env, REDOCLY_TELEMETRY: 'off', NO_COLOR: '1' } },
    );
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(
      report.problems.map((p) => `${p.ruleId}: ${p.message}`),
      stderr,
    ).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
