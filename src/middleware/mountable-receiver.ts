/**
 * What the framework adapters need from a callback receiver: the framework-free `receive()` and
 * its body limit. `createCallbackReceiver()` returns one; the adapters depend on nothing else,
 * so they stay thin and the receiver stays testable without a framework.
 */
export interface MountableReceiver {
  /** Bodies larger than this are refused with 413 while they are read, not after. */
  readonly maxBodyBytes: number;
  receive(request: ReceivedRequest): Promise<ReceiverResponse>;
}

/** Where the browser is sent after a secure-checkout return, by the verified outcome. */
export interface ReturnUrls {
  paid: string;
  pending: string;
  failed: string;
}

export interface ReceivedRequest {
  method: string;
  /** The path under the mount point, with its query: `/callback?pesakit_ref=…`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The raw body (Buffer), or what a framework already parsed when the bytes are gone. */
  body?: unknown;
  /** Overrides the receiver's own `returnUrls` for this mount point. */
  returnUrls?: ReturnUrls;
}

export interface ReceiverResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}
