import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoints } from '../../../src/core/endpoints.js';
import { pathParametersOf } from '../../../src/openapi/path-template.js';
import { schemaAnnotations } from '../../../src/openapi/schema-annotations.js';
import { SchemaComponents } from '../../../src/openapi/schema-components.js';
import { allDocuments, collectRefs, resolvePointer } from './documents.js';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every object under `node` with the key it sits under, for checks over all schemas. */
function* entries(node: unknown, key = ''): Generator<[string, unknown]> {
  if (node === null || typeof node !== 'object') return;
  yield [key, node];
  for (const [child, value] of Object.entries(node)) yield* entries(value, child);
}

describe.each(allDocuments())(
  'the $name document is structurally valid OpenAPI 3.1',
  ({ document }) => {
    it('has the required top-level fields', () => {
      expect(document.openapi).toMatch(/^3\.1\.\d+$/);
      expect(document.info.title).not.toBe('');
      expect(document.info.version).not.toBe('');
      expect(Object.keys(document.paths).length).toBeGreaterThan(0);
      expect(document.servers.length).toBeGreaterThan(0);
      // The printed document is plain JSON: nothing lost or changed by a round trip.
      expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    });

    it('resolves every $ref inside the document', () => {
      const refs = collectRefs(document);
      expect(refs.length).toBeGreaterThan(0);
      const broken = refs.filter(({ ref }) => resolvePointer(document, ref) === undefined);
      expect(broken).toEqual([]);
    });

    it('has paths starting with /, known methods, unique operationIds, described responses', () => {
      const ids: string[] = [];
      for (const [path, item] of Object.entries(document.paths)) {
        expect(path.startsWith('/')).toBe(true);
        for (const [method, operation] of Object.entries(item)) {
          expect(methods).toContain(method);
          ids.push(operation.operationId);
          expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
          for (const [status, response] of Object.entries(operation.responses)) {
            expect(status).toMatch(/^[1-5]\d\d$/);
            expect(response.description).not.toBe('');
          }
        }
      }
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('declares each path template parameter exactly once, and no others', () => {
      for (const [path, item] of Object.entries(document.paths)) {
        const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
        for (const operation of Object.values(item)) {
          const declared = (operation.parameters ?? [])
            .filter((parameter) => parameter.in === 'path')
            .map((parameter) => parameter.name);
          expect(declared).toEqual(inPath);
        }
      }
    });

    it('names only declared security schemes and tags', () => {
      const tags = document.tags.map((tag) => tag.name);
      for (const item of Object.values(document.paths)) {
        for (const operation of Object.values(item)) {
          for (const requirement of operation.security ?? []) {
            for (const scheme of Object.keys(requirement)) {
              expect(Object.keys(document.components.securitySchemes)).toContain(scheme);
            }
          }
          for (const tag of operation.tags) expect(tags).toContain(tag);
        }
      }
    });

    it('embeds schemas without $schema or $defs (their pointers would not resolve from here)', () => {
      const keys = [...entries(document.components.schemas)].flatMap(([, node]) =>
        Object.keys(node as object),
      );
      expect(keys).not.toContain('$schema');
      expect(keys).not.toContain('$defs');
    });

    it('leaves no schema silently unconstrained: only additionalProperties may be {}', () => {
      const empty = [...entries(document.components)]
        .filter(([, node]) => !Array.isArray(node) && Object.keys(node as object).length === 0)
        .map(([key]) => key);
      expect(new Set(empty)).toEqual(new Set(['additionalProperties']));
    });
  },
);

describe('zod refinements become words, not crashes', () => {
  const { document } = allDocuments()[0]!;
  const property = (component: string, name: string) => {
    const properties = document.components.schemas[component]?.properties ?? {};
    return properties[name] as Record<string, unknown> | undefined;
  };

  it('an amount is a positive number with at most two decimals', () => {
    expect(property('MnoCollectionRequest', 'amount')).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      description: expect.stringMatching(/at most two decimal places/),
    });
  });

  it('a payable MSISDN names the provider prefixes; an engine date its pattern', () => {
    expect(property('MnoCollectionRequest', 'msisdn')).toMatchObject({
      pattern: '^255(?:61|62|65|67|68|69|71|73|74|75|76|77|78|79)\\d{7}$',
      description: expect.stringMatching(/Vodacom 74\/75\/76\/79/),
    });
    expect(property('EngineCallback', 'data')).toMatchObject({
      properties: {
        transactionDate: {
          pattern:
            '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01]) (?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$',
          description: expect.stringMatching(/real calendar date/),
        },
      },
    });
  });
});

describe('schema components', () => {
  it('are named after the exported zod schema and shared between operations', () => {
    const components = new SchemaComponents(schemaAnnotations('sandbox'));
    const login = endpoints.collectionLogin.request;
    expect(components.ref(login, 'input', 'Unused')).toEqual({
      $ref: '#/components/schemas/LoginRequest',
    });
    expect(components.ref(endpoints.airtimeLogin.request, 'input', 'Other')).toEqual({
      $ref: '#/components/schemas/LoginRequest',
    });
    expect(Object.keys(components.toJSON())).toEqual(['LoginRequest']);
  });

  it('refuse two different JSON Schemas under one name', () => {
    const components = new SchemaComponents(schemaAnnotations('sandbox'));
    // A default makes a field optional to send but always present when parsed.
    const paged = z.object({ page: z.number().default(1) });
    components.ref(paged, 'input', 'Paged');
    expect(() => components.ref(paged, 'output', 'Paged')).toThrow(/Paged would have two/);
  });

  it('an undescribed path parameter is refused rather than printed without a description', () => {
    expect(() =>
      pathParametersOf('/api/things/{thing}', new SchemaComponents(schemaAnnotations('sandbox'))),
    ).toThrow(/\{thing\}.*no OpenAPI/);
  });
});
