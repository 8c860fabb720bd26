export { buildOpenApiDocument } from './build-document.js';
export type { OpenApiDocument, OpenApiOptions } from './types.js';
