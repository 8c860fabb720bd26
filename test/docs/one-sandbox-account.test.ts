import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A newcomer follows one page, then another: every page and example logs in with the same
// sandbox account, so the second never answers 401 to the account the first created. One email
// and one password, the same in each product (each product keeps its own accounts).

const SANDBOX_ACCOUNT = { email: 'shop@example.co.tz', password: 'sandbox-pass-1' };

const root = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every page a merchant reads and every example they copy (the OpenAPI document aside). */
const pages = [
  join(root, 'README.md'),
  ...filesUnder(join(root, 'docs')).filter((path) => path.endsWith('.md')),
  ...filesUnder(join(root, 'examples')),
];

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
// `password: 'x'`, `"password":"x"`, `PASSWORD=x`, `password ?? 'x'`: a written-out value.
const PASSWORD = /password["']?\s*(?:[:=]|\?\?|\|\|)\s*["']?([A-Za-z0-9][^"'\s,}`()]*)(\()?/gi;
/** Not a value but a pointer to one: the environment, a placeholder, a variable. */
const notALiteral = /^(?:process\.env|env\[|password\b|undefined\b)/;

function accountsIn(text: string): { emails: string[]; passwords: string[] } {
  const emails: string[] = [];
  const passwords: string[] = [];
  for (const line of text.split('\n')) {
    if (/email/i.test(line)) emails.push(...(line.match(EMAIL) ?? []));
    for (const [, value = '', call] of line.matchAll(PASSWORD)) {
      // `password: required('…')` reads it from somewhere: not a value.
      if (call === undefined && !notALiteral.test(value)) passwords.push(value);
    }
  }
  return { emails, passwords };
}

describe('one sandbox account on every page and in every example', () => {
  it.each(pages.map((path) => [relative(root, path), path]))('%s', (_name, path) => {
    const { emails, passwords } = accountsIn(readFileSync(path, 'utf8'));
    expect(emails.filter((email) => email !== SANDBOX_ACCOUNT.email)).toEqual([]);
    expect(passwords.filter((password) => password !== SANDBOX_ACCOUNT.password)).toEqual([]);
  });

  it('the pages that create and use an account name it (the check reads what it should)', () => {
    const seen = pages.map((path) => accountsIn(readFileSync(path, 'utf8')));
    expect(seen.filter(({ emails }) => emails.length > 0).length).toBeGreaterThanOrEqual(6);
    expect(accountsIn("credentials: { email: 'a@b.co', password: 'other' }")).toEqual({
      emails: ['a@b.co'],
      passwords: ['other'],
    });
    expect(accountsIn('PESAKIT_COLLECTION_PASSWORD=hunter22 # a job').passwords).toEqual([
      'hunter22',
    ]);
  });
});
