export { buildOpenApiDocument } from './build-document.js';
export type { OpenApiOptions } from './options.js';
export type { OpenApiDocument } from './types.js';
