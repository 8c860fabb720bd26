import { describe, expect, it } from 'vitest';
import { withMerchantReferenceInCallbackUrl } from '../../src/resources/callback-url.js';

const tag = (callbackUrl: string, reference: string) =>
  withMerchantReferenceInCallbackUrl({ amount: 1_000, callback_url: callbackUrl }, reference)
    .callback_url;

describe('tagging the callback URL with pesakit_ref', () => {
  it('adds pesakit_ref after the merchant query, form-encoded, before the fragment', () => {
    const first = 'https://shop.example.co.tz/paid?order=1';
    expect(tag(first, 'ref-1')).toBe(`${first}&pesakit_ref=ref-1`);
    expect(tag(first, 'ref:2')).toBe(`${first}&pesakit_ref=ref%3A2`);
    expect(tag('https://duka.tz/x#frag', 'ref-3')).toBe('https://duka.tz/x?pesakit_ref=ref-3#frag');
  });

  it('replaces a pesakit_ref the merchant put there, keeping the other parameters', () => {
    expect(tag('https://duka.tz/p?pesakit_ref=old&x=1&pesakit_ref=older', 'new')).toBe(
      'https://duka.tz/p?pesakit_ref=new&x=1',
    );
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
