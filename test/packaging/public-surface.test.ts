import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import * as schemas from '../../src/schemas.js';

// The names a merchant never needs: the transport, the endpoint table and its paths, the
// response-to-error mapping, header parsing. They stay inside the package.
const internal = [
  'Transport',
  'endpoints',
  'loginEndpoints',
  'endpointPath',
  'sandboxPrefixes',
  'errorFromResponse',
  'parseRetryAfter',
];

const isErrorName = (name: string) => /Error$/.test(name);

describe("the root module's runtime surface", () => {
  const names = Object.keys(root);

  it('exports at most 40 runtime names besides the error classes and their is* guards', () => {
    const others = names.filter((name) => !isErrorName(name));
    expect(others.length, others.join(', ')).toBeLessThanOrEqual(40);
  });

  it('exports nothing internal and no zod schema', () => {
    expect(names.filter((name) => internal.includes(name))).toEqual([]);
    expect(names.filter((name) => name.endsWith('Schema'))).toEqual([]);
  });

  it('leaves the schemas to pesakit/schemas', () => {
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining(['engineCallbackSchema', 'msisdnSchema', 'airtimeBulkRowSchema']),
    );
    expect(Object.keys(schemas).filter((name) => internal.includes(name))).toEqual([]);
  });
});
