import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { taggedUrl, withMerchantReferenceInCallbackUrl } from '../../src/resources/callback-url.js';

// The callback URL is tagged from a kept template of the last URL (a speed change): whatever
// the URL and the reference, and in whatever order URLs come, the answer must be exactly what
// parsing the URL and setting `pesakit_ref` on it gives.

function byUrl(url: string, reference: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  parsed.searchParams.set('pesakit_ref', reference);
  return parsed.toString();
}

const queryPart = fc.constantFrom(
  '',
  '?',
  '?order=42',
  '?a=1&b=two+words&c=%20x',
  '?pesakit_ref=old',
  '?pesakit_ref=old&x=1&pesakit_ref=older',
  '?q=caf%C3%A9&emoji=%F0%9F%98%80',
  '?pesakitRefPlaceholder0q7Z=1',
  '?k=pesakitRefPlaceholder0q7Z',
  '?x=a:b&y=%3A',
  '?flag',
);
const url = fc
  .tuple(
    fc.constantFrom('https://', 'http://', 'HTTPS://', 'ftp://', 'not a url ', ''),
    fc.constantFrom('shop.example.co.tz', 'SHOP.Example.co.tz:443', '127.0.0.1:8080', 'duka.tz'),
    fc.constantFrom('', '/', '/paid', '/a b/ç', '/pesakitRefPlaceholder0q7Z'),
    queryPart,
    fc.constantFrom('', '#top', '#pesakitRefPlaceholder0q7Z', '#a?b=c'),
  )
  .map((parts) => parts.join(''));
const reference = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_\-:.]{1,64}$/),
  fc.constantFrom('01JD3Q4Z8W5K2T9XG7M1RVB6NC', 'order:42', 'a.b-c_d', 'with space', 'ü', 'a&b=c'),
);

describe('tagging the callback URL with pesakit_ref', () => {
  it('gives what URL parsing gives, for any URL and reference, in any order', () => {
    // Each URL comes one to four times in a row: the template is made on the second.
    const calls = fc.array(fc.tuple(url, fc.array(reference, { minLength: 1, maxLength: 4 })), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(calls, (runs) => {
        for (const [given, references] of runs) {
          for (const ref of references) expect(taggedUrl(given, ref)).toBe(byUrl(given, ref));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the same URL twice, then another: each answer is its own', () => {
    const first = 'https://shop.example.co.tz/paid?order=1';
    expect(taggedUrl(first, 'ref-1')).toBe(`${first}&pesakit_ref=ref-1`);
    expect(taggedUrl(first, 'ref:2')).toBe(`${first}&pesakit_ref=ref%3A2`);
    expect(taggedUrl(first, 'ref-2b')).toBe(`${first}&pesakit_ref=ref-2b`);
    expect(taggedUrl('https://duka.tz/x#frag', 'ref-3')).toBe(
      'https://duka.tz/x?pesakit_ref=ref-3#frag',
    );
    expect(taggedUrl('no url', 'ref-4')).toBeUndefined();
    expect(taggedUrl('no url', 'ref-5')).toBeUndefined();
  });

  it('a body without a parseable callback_url is returned as it is', () => {
    const body = { amount: 1_000, callback_url: 'not a url' };
    expect(withMerchantReferenceInCallbackUrl(body, 'ref-1')).toBe(body);
    const tagged = withMerchantReferenceInCallbackUrl(
      { amount: 1_000, callback_url: 'https://duka.tz/paid' },
      'ref-1',
    );
    expect(tagged).toEqual({
      amount: 1_000,
      callback_url: 'https://duka.tz/paid?pesakit_ref=ref-1',
    });
  });
});
