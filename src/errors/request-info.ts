/** Which call failed: enough to find it in logs, never a secret. */
export interface RequestInfo {
  readonly method: string;
  /** The request path, without host or query string. */
  readonly path: string;
}
