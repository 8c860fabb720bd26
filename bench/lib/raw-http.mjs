// A JSON POST through node:http and the global keep-alive agent, as bare as it comes: the
// benchmarks' second baseline since stop 20, when the SDK itself started sending with node:http.
import { request as httpRequest } from 'node:http';

/** POSTs `body` as JSON to `url` with a bearer token; resolves with the parsed answer. */
export function rawHttpPost(url, token, body) {
  return new Promise((resolve, reject) => {
    const json = JSON.stringify(body);
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(json),
        authorization: `Bearer ${token}`,
      },
    });
    request.once('error', reject);
    request.once('response', (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.once('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      response.once('error', reject);
    });
    request.end(json);
  });
}
