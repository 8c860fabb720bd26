import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// docs/getting-started.md runs as written *in a fresh project* — not inside pesakit's
// repository, where pesakit's own package.json ("type": "module") and node_modules would hide
// what a newcomer runs into.
//
// The test makes an empty directory outside the repository, then runs every block of the guide
// in order, verbatim: `sh` blocks with bash, `ts` blocks appended to the file their first line
// names (`// quickstart.ts`, `// quickstart.ts, continued`). Three differences, all named here:
// - `npm install pesakit` installs the tarball `npm pack` makes of the built package (dist/ must
//   be built: `npm run build`); everything else the guide installs comes from the npm registry;
// - the sandbox listens on a free port, so its address replaces `http://127.0.0.1:4010`;
// - a block after an HTML comment is not run; the comment says what the test does instead.
// npm runs with --prefer-offline --no-audit --no-fund (as npm_config_* variables, so that the
// commands stay as written) to keep the run short on CI.

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const guide = readFileSync(join(root, 'docs', 'getting-started.md'), 'utf8');
const guideUrl = 'http://127.0.0.1:4010';

interface Block {
  lang: string;
  code: string;
  /** The HTML comment before the block, if any: the block is not run. */
  instead: string | undefined;
}

function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  const pattern = /(<!--[\s\S]*?-->\n)?```(\w*)\n([\s\S]*?)```/g;
  for (const match of markdown.matchAll(pattern)) {
    found.push({ instead: match[1], lang: match[2] ?? '', code: match[3] ?? '' });
  }
  return found;
}

// A newcomer's environment: none of the npm_* variables `npm test` sets for its scripts, and no
// NODE_OPTIONS (the Node 24 run uses it to load a hook into pesakit's own tests). PATH is kept,
// so under the Node 24 run the fresh project runs on Node 24 too.
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^npm_/i.test(name) && name !== 'NODE_OPTIONS' && name !== 'INIT_CWD',
    ),
  ),
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

const work = mkdtempSync(join(tmpdir(), 'pesakit-getting-started-'));
const project = join(work, 'project');
let tarball: string;
let sandbox: ChildProcess | undefined;
let url: string;

function bash(script: string) {
  return run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: project,
    env,
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

function here(code: string): string {
  return code.replaceAll(guideUrl, url);
}

async function startSandbox(): Promise<string> {
  // As `npx pesakit sandbox` would: the installed package's bin, on a free port.
  const started = spawn(
    join(project, 'node_modules', '.bin', 'pesakit'),
    ['sandbox', '--port', '0'],
    {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  sandbox = started;
  const lines = createInterface({ input: started.stdout! });
  return new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      match?.[1] ? resolve(match[1]) : reject(new Error(`unexpected first line: ${line}`));
    });
    started.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
  });
}

// The better-sqlite3 pesakit's own tests use, already built for the running Node. Installing it
// from the registry compiles it where no prebuilt binary exists: about two minutes per CI run.
function linkBuiltBetterSqlite3(): void {
  const built = join(root, 'node_modules', 'better-sqlite3');
  const target = join(project, 'node_modules', 'better-sqlite3');
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(realpathSync(built), target, 'dir');
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'index.d.ts')) || !existsSync(join(root, 'dist', 'cli'))) {
    throw new Error('dist/ is not fully built: run `npm run build` (tsup) before this test');
  }
  mkdirSync(project);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: root,
    env,
  });
  const [packed] = JSON.parse(stdout) as { filename: string }[];
  tarball = join(work, packed!.filename);
}, 60_000);

afterAll(() => {
  sandbox?.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

describe('docs/getting-started.md, in a fresh project', () => {
  it('every block runs as written, and each program prints what the guide says', async () => {
    const all = blocks(guide);
    const outputs: string[] = [];
    let ranSandboxStart = false;
    let ranSqliteInstall = false;

    for (const block of all) {
      if (block.lang === 'sh' && block.instead !== undefined) {
        if (/npx pesakit sandbox/.test(block.code)) {
          // The optional peers are not installed yet: the CLI must start without them, and the
          // one command that needs them must say what to install.
          expect(existsSync(join(project, 'node_modules', 'better-sqlite3'))).toBe(false);
          url = await startSandbox();
          ranSandboxStart = true;
          const demo = await bash('npx pesakit demo --store :memory:').then(
            () => 'ran',
            (error: { stderr?: string }) => error.stderr ?? '',
          );
          expect(demo).toMatch(
            /pesakit demo keeps its references in SQLite, and (kysely|better-sqlite3) is not installed: run `npm install kysely better-sqlite3`/,
          );
        } else if (/npm install kysely better-sqlite3/.test(block.code)) {
          await bash('npm install kysely && npm install -D @types/better-sqlite3');
          linkBuiltBetterSqlite3();
          ranSqliteInstall = true;
        } else {
          throw new Error(`no stand-in for the block after ${block.instead}`);
        }
      } else if (block.lang === 'sh') {
        const script = here(block.code).replace(/^npm install pesakit$/m, `npm install ${tarball}`);
        const { stdout } = await bash(script);
        outputs.push(stdout);
      } else if (block.lang === 'ts') {
        const file = /^\/\/ ([\w.-]+\.ts)\b/.exec(block.code)?.[1];
        expect(file, `a ts block names its file on its first line:\n${block.code}`).toBeDefined();
        appendFileSync(join(project, file!), `${here(block.code)}\n`);
      }
    }
    expect(ranSandboxStart).toBe(true);
    expect(ranSqliteInstall).toBe(true);

    // What a fresh project got: ES modules, pesakit from the tarball, strict TypeScript.
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(manifest.type).toBe('module');
    expect(manifest.dependencies.pesakit).toMatch(/^file:.*pesakit-.*\.tgz$/);
    expect(readFileSync(join(project, 'tsconfig.json'), 'utf8')).toMatch(/"strict": true/);

    const printed = outputs
      .join('\n')
      .split('\n')
      .filter((line) => /^(collection|pulled|found|airtime|payout|unknown|reopened) /.test(line));
    const promised = all
      .filter((block) => block.lang === 'text')
      .flatMap((block) => block.code.trim().split('\n'));
    expect(printed).toHaveLength(promised.length);
    expect(printed[0]).toMatch(/^collection order-1001 99\d{10} pending$/);
    expect(printed[1]).toBe('pulled success stored success');
    expect(printed[2]).toBe('found order-1001');
    expect(printed[3]).toMatch(/^airtime airtime-501 success AIR[0-9A-F]{16}$/);
    expect(printed[4]).toMatch(/^payout success DSB[0-9A-F]{16} TXN\d{12}$/);
    expect(printed[5]).toBe('reopened airtime_purchase success');
  }, 300_000);

  it('pins what the guide warns about: CommonJS stops top-level await, and TS7016 without the types', async () => {
    // Runs after the walk-through above, in the same project.
    await bash('npm pkg set type=commonjs');
    const cjs = await bash('npx tsx quickstart.ts').then(
      () => 'ran',
      (error: { stderr?: string }) => error.stderr ?? '',
    );
    expect(cjs).toContain(
      'Top-level await is currently not supported with the "cjs" output format',
    );
    await bash('npm pkg set type=module');

    const types = join(project, 'node_modules', '@types', 'better-sqlite3');
    renameSync(types, `${types}.hidden`);
    const untyped = await bash('npx tsc --noEmit --skipLibCheck false')
      .then(
        () => 'type-checked',
        (error: { stdout?: string }) => error.stdout ?? '',
      )
      .finally(() => renameSync(`${types}.hidden`, types));
    expect(untyped).toMatch(
      /error TS7016: Could not find a declaration file for module 'better-sqlite3'/,
    );
  }, 60_000);
});
