import type { IncomingMessage } from 'node:http';
import { declaresTooLarge } from './node-response.js';

export type BodyReading =
  | { ok: true; body: Buffer }
  | { ok: false; reason: 'too_large' | 'aborted' };

/** Reads a body, refusing it as soon as it passes `limit` bytes, so no body can grow the heap. */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyReading> {
  if (declaresTooLarge(request.headers, limit)) {
    return Promise.resolve({ ok: false, reason: 'too_large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (reading: BodyReading) => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAbort);
      request.off('aborted', onAbort);
      resolve(reading);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop reading: the answer (413) goes out now; the socket is closed after it.
        request.pause();
        finish({ ok: false, reason: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, body: Buffer.concat(chunks, size) });
    const onAbort = () => finish({ ok: false, reason: 'aborted' });
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onAbort);
    request.on('aborted', onAbort);
  });
}
