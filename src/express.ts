// `pesakit/express`: the callback receiver as Express 5 middleware.
export type { PesakitExpressOptions } from './middleware/express.js';
export { pesakitExpress } from './middleware/express.js';
export type {
  MountableReceiver,
  ReceivedRequest,
  ReceiverResponse,
  ReturnUrls,
} from './middleware/mountable-receiver.js';
