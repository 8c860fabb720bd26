import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/openapi/index.js';
import { packageVersion, root } from './documents.js';

const regenerate = 'node --import tsx src/cli/index.ts openapi --out docs/openapi.json';

describe('docs/openapi.json', () => {
  it('is the document the schemas generate today (never edited by hand)', () => {
    const committed = readFileSync(new URL('docs/openapi.json', root), 'utf8');
    const fresh = buildOpenApiDocument({ environment: 'sandbox', version: packageVersion });
    expect(
      committed,
      `docs/openapi.json is out of date with the schemas or the endpoint table; run: ${regenerate}`,
    ).toBe(`${JSON.stringify(fresh, null, 2)}\n`);
  });
});
