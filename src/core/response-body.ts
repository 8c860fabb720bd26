/**
 * Reads a response body: parsed JSON when it is JSON, the raw text otherwise (an HTML error
 * page from a proxy, an empty 204), `undefined` when empty. Never throws on a malformed body —
 * the caller decides what an unexpected body means.
 */
export async function readResponseBody(response: { text(): Promise<string> }): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
