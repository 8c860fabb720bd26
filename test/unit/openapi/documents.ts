import { readFileSync } from 'node:fs';
import { buildOpenApiDocument, type OpenApiDocument } from '../../../src/openapi/index.js';
import type { Product } from '../../../src/schemas/product.js';

export const root = new URL('../../../', import.meta.url);

export const packageVersion = (
  JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string }
).version;

export const products: readonly Product[] = ['collection', 'airtime', 'disbursement'];

/** Every document the builder can make: the sandbox one and one per production product. */
export function allDocuments(): { name: string; document: OpenApiDocument }[] {
  return [
    {
      name: 'sandbox',
      document: buildOpenApiDocument({ environment: 'sandbox', version: packageVersion }),
    },
    ...products.map((product) => ({
      name: `production ${product}`,
      document: buildOpenApiDocument({
        environment: 'production',
        product,
        version: packageVersion,
      }),
    })),
  ];
}

/** Follows a local `#/a/b` JSON Pointer; `undefined` when it leads nowhere. */
export function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Every `$ref` value anywhere under `node`, with where it was found. */
export function collectRefs(node: unknown, at = '#'): { at: string; ref: string }[] {
  if (node === null || typeof node !== 'object') return [];
  const found: { at: string; ref: string }[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') found.push({ at, ref: value });
    else found.push(...collectRefs(value, `${at}/${key}`));
  }
  return found;
}
