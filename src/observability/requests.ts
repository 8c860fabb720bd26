import type { Call } from '../core/call.js';
import type { Environment } from '../core/endpoints.js';
import { endpointTemplate } from '../core/paths.js';
import { type RequestView, requestChannel } from './channels.js';
import type { Mutable, Unit } from './traced.js';

/** One HTTP attempt of `call` on `pesakit.request`: the path template, never the path itself. */
export function requestUnit(call: Call, environment: Environment): Unit<RequestView, unknown> {
  const answered = (view: Mutable<RequestView>) => {
    view.status = call.status;
    view.requestId = call.lastResponse?.requestId;
  };
  return {
    channel: requestChannel,
    view: () => {
      const url = new URL(call.url);
      return {
        method: call.endpoint.method,
        urlTemplate: endpointTemplate(call.endpoint, environment),
        serverAddress: url.hostname,
        serverPort: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
        attempt: call.attempt,
        status: undefined,
        requestId: undefined,
        errorType: undefined,
      };
    },
    settled: answered,
    failed: answered,
  };
}
