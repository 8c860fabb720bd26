// `pesakit/fastify`: the callback receiver as a Fastify 5 plugin.
export type { PesakitFastifyOptions } from './middleware/fastify.js';
export { pesakitFastify } from './middleware/fastify.js';
export type {
  MountableReceiver,
  ReceivedRequest,
  ReceiverResponse,
  ReturnUrls,
} from './middleware/mountable-receiver.js';
