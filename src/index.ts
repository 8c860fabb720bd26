export { type EndpointId, type Environment, endpoints, type Product } from './core/endpoints.js';
export { endpointPath } from './core/paths.js';
export * from './errors/index.js';
export * from './schemas/index.js';
