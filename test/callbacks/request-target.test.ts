import { describe, expect, it } from 'vitest';
import { requestTarget } from '../../src/callbacks/request-target.js';

// The receiver splits plain callback URLs itself instead of building a URL; it must read every
// target exactly as `new URL(target, base)` does.
describe('requestTarget', () => {
  it.each([
    '/callback',
    '/callback/',
    '/callback?pesakit_ref=order-1',
    '/callback?',
    '/callback?payload=%7B%22a%22%3A1%7D&pesakit_ref=a+b',
    '/return?external_reference=EXT-1&x=1&x=2',
    '/',
    '/a/../callback?pesakit_ref=x',
    '/call%62ack',
    '//callback?x=1',
    '/callback?x=1#fragment',
    '/ünï?x=ü',
  ])('reads %s as URL does', (target) => {
    const url = new URL(target, 'http://receiver.invalid');
    const read = requestTarget(target);
    expect(read.pathname).toBe(url.pathname);
    expect(read.search).toBe(url.search);
    expect([...read.searchParams]).toEqual([...url.searchParams]);
  });
});
