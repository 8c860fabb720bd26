import { type Endpoint, type EndpointId, endpoints } from './endpoints.js';
import type { RequestOptions } from './request-options.js';
import { productOrigin, resolvedPath } from './request-target.js';
import type { ResolvedTransportOptions } from './transport-options.js';

/**
 * Where each endpoint is sent, for one transport's environment and hosts. The options are fixed
 * at construction, so an endpoint without path parameters resolves the same every time: it is
 * resolved on first use and kept (the regexes cost ~7 µs a call).
 */
export class EndpointTargets {
  readonly #options: ResolvedTransportOptions;
  /** The URL and path of each endpoint without path parameters. */
  readonly #targets = new Map<EndpointId, { readonly path: string; readonly url: string }>();
  /** Paths by endpoint, for `path` (resolving one runs two regexes). */
  readonly #paths = new Map<EndpointId, string>();

  constructor(options: ResolvedTransportOptions) {
    this.#options = options;
  }

  /** The path and full URL of a call; throws (before sending) what resolving can. */
  target(id: EndpointId, endpoint: Endpoint, params: RequestOptions['params']) {
    // Only an endpoint with path parameters (none but `providerTest`) needs resolving per call.
    const cacheable = params === undefined && !endpoint.sandboxPath.includes('{');
    const cached = cacheable ? this.#targets.get(id) : undefined;
    if (cached) return cached;
    const path = resolvedPath(id, endpoint, this.#options.environment, params);
    const target = { path, url: productOrigin(endpoint.product, this.#options) + path };
    if (cacheable) this.#targets.set(id, target);
    return target;
  }

  /**
   * The path of an endpoint without path parameters: a login's, which every money call names
   * (authenticate). Kept apart from the targets, which also resolve the product's origin (and
   * throw without one), so a path is all this ever needs.
   */
  path(id: EndpointId): string {
    let path = this.#paths.get(id);
    if (path === undefined) {
      path = resolvedPath(id, endpoints[id], this.#options.environment);
      this.#paths.set(id, path);
    }
    return path;
  }
}
