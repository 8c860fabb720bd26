import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

// A merchant copies the code in README.md and docs/ into a strict TypeScript project. Every ```ts block must type-check against pesakit's public entry points
// (`pesakit`, `pesakit/sqlite`, `pesakit/postgres`, `pesakit/express`, `pesakit/fastify`, `pesakit/otel`, `pesakit/testing`),
// with only the shop's own names (orders, alerts, ...) declared. A block that does not compile
// is usually one that is wrong at run time too: `onReview(record, ...)` that reads
// `record.merchantReference` throws on every orphan (record is null), so the orphan is retried
// until dead-lettered and nobody is ever told of it.

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Blocks that describe a shape rather than being code to paste: not compiled, and why. */
const notCode: Record<string, string> = {
  'reference-store.md: interface ReferenceStore {': 'the interfaces, listed for reading',
};

/**
 * The shop's own names the prose uses, as globals (a sample that declares one itself shadows
 * it); everything pesakit-side is the real thing.
 */
const shopNames = `
declare const app: import('express').Express;
declare const orders: any, alerts: any, log: any, db: any, mailer: any;
declare const baseUrl: string, msisdn: string, amount: number, name: string;
declare const credentials: import('pesakit').PesakitOptions['credentials'];
declare const pesakit: import('pesakit').Pesakit;
declare const receiver: import('pesakit').CallbackReceiver;
declare function reconcileLater(reference: string): unknown;
declare function askFinanceToTopUp(): unknown;
declare function showFieldErrors(errors: unknown): unknown;
declare function fulfilOrder(record: import('pesakit').TransactionRecord, key: string): unknown;
declare function releaseOrder(record: import('pesakit').TransactionRecord): unknown;
declare function markPayoutSent(record: import('pesakit').MoneyOutRecord): unknown;
declare function retryPayoutLater(record: import('pesakit').MoneyOutRecord): unknown;
declare function alertSupport(record: import('pesakit').TransactionRecord | null, verdict: unknown): unknown;
`;

interface Sample {
  id: string;
  code: string;
}

function samples(): Sample[] {
  const files = ['README.md', ...readdirSync(join(root, 'docs')).map((file) => `docs/${file}`)]
    .filter((file) => file.endsWith('.md'))
    // getting-started.md runs verbatim in test/docs; benchmarks.md shows no merchant code.
    .filter((file) => !/getting-started|benchmarks/.test(file));
  const found: Sample[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const match of text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) {
      const line = text.slice(0, match.index).split('\n').length;
      const code = match[1] ?? '';
      const name = file.replace(/^docs\//, '');
      if (Object.keys(notCode).some((key) => key === `${name}: ${code.split('\n')[0]}`)) continue;
      found.push({ id: `${name}:${line}`, code });
    }
  }
  return found;
}

const workspace = mkdtempSync(join(tmpdir(), 'pesakit-docs-samples-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** One strict program over every sample, each its own module; diagnostics by sample. */
function typeCheck(list: Sample[]): Map<string, string[]> {
  symlinkSync(join(root, 'node_modules'), join(workspace, 'node_modules'), 'dir');
  writeFileSync(join(workspace, 'package.json'), '{"type":"module"}');
  mkdirSync(join(workspace, 'samples'));
  const files = new Map<string, string>();
  list.forEach((sample, index) => {
    const file = join(workspace, 'samples', `sample-${index}.ts`);
    // A sample's top-level `return` (a catch block's advice) reads as a function body.
    const lines = sample.code.split('\n');
    const imports = lines.filter((line) => line.startsWith('import ')).join('\n');
    const rest = lines.filter((line) => !line.startsWith('import ')).join('\n');
    const body = /^\s*(if .*)?return\b/m.test(sample.code)
      ? `${imports}\nexport async function sample() {\n${rest}\n}`
      : `export {};\n${sample.code}`;
    writeFileSync(file, body);
    files.set(file, sample.id);
  });
  const shop = join(workspace, 'shop.d.ts');
  writeFileSync(shop, shopNames);
  // The built declarations, as a merchant's project sees them (npm test builds before the suite).
  const entry = (path: string) => [join(root, 'dist', path)];
  const program = ts.createProgram([shop, ...files.keys()], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'], // a Node project: no DOM (whose global `name` is void)
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: false,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    baseUrl: workspace,
    paths: {
      pesakit: entry('index.d.ts'),
      'pesakit/sqlite': entry('sqlite.d.ts'),
      'pesakit/postgres': entry('postgres.d.ts'),
      'pesakit/express': entry('express.d.ts'),
      'pesakit/fastify': entry('fastify.d.ts'),
      'pesakit/sandbox': entry('sandbox/index.d.ts'),
      'pesakit/otel': entry('otel.d.ts'),
      'pesakit/testing': entry('testing.d.ts'),
    },
  });
  const problems = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const id = diagnostic.file ? files.get(diagnostic.file.fileName) : undefined;
    const where = id ?? diagnostic.file?.fileName ?? 'program';
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const at =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.text.slice(diagnostic.start, diagnostic.start + (diagnostic.length ?? 0))
        : '';
    const message = at ? `${text} (at \`${at}\`)` : text;
    problems.set(where, [...(problems.get(where) ?? []), message]);
  }
  return problems;
}

describe('the code in README.md and docs/', () => {
  it('type-checks in a strict project against the public entry points', {
    timeout: 120_000,
  }, () => {
    const list = samples();
    expect(list.length).toBeGreaterThan(10);
    const problems = typeCheck(list);
    expect(Object.fromEntries(problems)).toEqual({});
  });
});
