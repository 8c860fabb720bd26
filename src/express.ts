// `pesakit/express`: the callback receiver as Express 5 middleware.

export type { ReceivedRequest, ReceiverResponse } from './callbacks/http.js';
export type { ReturnUrls } from './callbacks/return-urls.js';
export type { PesakitExpressOptions } from './middleware/express.js';
export { pesakitExpress } from './middleware/express.js';
export type { MountableReceiver } from './middleware/mountable-receiver.js';
