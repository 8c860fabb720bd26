// `pesakit/fastify`: the callback receiver as a Fastify 5 plugin.

export type { ReceivedRequest, ReceiverResponse } from './callbacks/http.js';
export type { ReturnUrls } from './callbacks/return-urls.js';
export type { PesakitFastifyOptions } from './middleware/fastify.js';
export { pesakitFastify } from './middleware/fastify.js';
export type { MountableReceiver } from './middleware/mountable-receiver.js';
