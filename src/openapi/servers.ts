import type { OpenApiOptions, OpenApiServer } from './types.js';

/** Where `npx pesakit sandbox` listens by default; every product shares it under its prefix. */
export const SANDBOX_URL = 'http://127.0.0.1:4010';

/** The sandbox host, or a per-product production host variable defaulting to a `.invalid` name. */
export function serversFor(options: OpenApiOptions): OpenApiServer[] {
  if (options.environment === 'sandbox') {
    return [
      {
        url: SANDBOX_URL,
        description: 'The local sandbox (`npx pesakit sandbox`): each product under its prefix.',
      },
    ];
  }
  const { product } = options;
  return [
    {
      url: '{baseUrl}',
      description: `The production host of the ${product} product.`,
      variables: {
        baseUrl: {
          default: `https://${product}.invalid`,
          description: `Your production base URL for ${product} (the SDK's \`baseUrls.${product}\`).`,
        },
      },
    },
  ];
}
