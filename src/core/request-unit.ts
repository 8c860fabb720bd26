import { requestChannel } from '../observability/channels.js';
import type { Unit } from '../observability/traced.js';
import type { RequestView } from '../observability/views.js';
import type { Call } from './call.js';
import type { Environment } from './endpoints.js';
import { endpointTemplate } from './paths.js';

/** One HTTP attempt of `call`: the path template, never the path itself. */
export function requestUnit(call: Call, environment: Environment): Unit<RequestView, unknown> {
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
    ended: (view) => {
      view.status = call.status;
      view.requestId = call.lastResponse?.requestId;
    },
  };
}
