import { describe, expect, it } from 'vitest';
import { formatTzs, renderCheckoutPage } from '../../src/sandbox/checkout/page.js';

const view = {
  token: 'tok',
  amount: 100,
  externalReference: 'EXT-1',
  callbackUrl: 'http://merchant.test/return',
  apiBase: 'http://127.0.0.1:4010/api/sandbox',
};

describe('renderCheckoutPage escapes merchant input', () => {
  const hostile = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">';

  it('escapes a hostile description and callback_url in the HTML, inside the script too', () => {
    const html = renderCheckoutPage({
      ...view,
      externalReference: 'EXT"<1>',
      description: hostile,
      callbackUrl: `http://merchant.test/return?next=${hostile}`,
    });
    expect(html).not.toContain('<script>window.pwned');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.pwned=1');
    expect(html).toContain('\\u003c/script\\u003e\\u003cscript\\u003ewindow.pwned=1');
    expect(html).toContain('EXT&quot;&lt;1&gt;');
    expect(html.match(/<script/g)).toHaveLength(2);
  });

  it('escapes line separators that would break older script parsers', () => {
    const html = renderCheckoutPage({ ...view, callbackUrl: 'http://m.test/?a=\u2028&b=\u2029' });
    expect(html).not.toMatch(/[\u2028\u2029]/);
    expect(html).toContain('\\u2028');
  });

  it('leaves out the description when there is none', () => {
    expect(renderCheckoutPage(view)).not.toContain('data-testid="checkout-description"');
  });
});

/** The policy as the browser reads it: the attribute value, HTML-unescaped. */
function contentSecurityPolicyOf(html: string): string {
  const attribute = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
  return attribute.replaceAll('&#39;', "'");
}

describe('renderCheckoutPage locks the page down', () => {
  it('allows only its own script and style, and connections to its own and the API origin', () => {
    const csp = contentSecurityPolicyOf(renderCheckoutPage(view));
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:4010");
  });

  it('allows only its own origin for a relative apiBase', () => {
    const csp = contentSecurityPolicyOf(renderCheckoutPage({ ...view, apiBase: '/api/sandbox' }));
    expect(csp).toContain("connect-src 'self';");
  });
});

describe('formatTzs', () => {
  it('formats shillings with grouping, and cents only when there are any', () => {
    expect(formatTzs(1_250_000)).toBe('TZS 1,250,000');
    expect(formatTzs(999.5)).toBe('TZS 999.50');
    expect(formatTzs(12_500.05)).toBe('TZS 12,500.05');
  });
});
