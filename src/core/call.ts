import type { Endpoint, EndpointId, UploadEndpointId } from './endpoints.js';
import type { LastResponse } from './last-response.js';
import type { RequestOptions } from './request-options.js';

/** One call in progress (a table endpoint or an upload): the counters its events report. */
export interface Call {
  readonly id: EndpointId | UploadEndpointId;
  readonly endpoint: Endpoint;
  readonly url: string;
  readonly path: string;
  readonly body: unknown;
  readonly options: RequestOptions;
  attempt: number;
  startedAt: number;
  /** The latest attempt's headers, built once and shared by the request and its events. */
  headers?: Record<string, string> | undefined;
  /** The token of the latest attempt, and the status it got. */
  token?: string | undefined;
  status?: number | undefined;
  /** What the latest attempt got back, for the result's `lastResponse`. */
  lastResponse?: LastResponse | undefined;
}
