import { describe, expect, it } from 'vitest';
import { TOKENS_KEPT, TokenRegistry } from '../../src/sandbox/auth/tokens.js';

// The token check runs on every bearer request, so it was made cheaper (one-shot digest, no
// match array, shared refusals). These hold it to the same answers as before, edge by edge.

function issued(registry: TokenRegistry, accountId = 7) {
  const token = registry.issue('collection', accountId);
  const [id, secret] = token.split('|') as [string, string];
  return { token, id, secret };
}

describe('TokenRegistry.lookup', () => {
  it('accepts the issued token for its product, with or without surrounding spaces', () => {
    const registry = new TokenRegistry();
    const { token, id } = issued(registry);
    expect(registry.lookup('collection', `Bearer ${token}`)).toEqual({
      ok: true,
      accountId: 7,
      tokenId: id,
    });
    expect(registry.lookup('collection', `  Bearer ${token} `)).toMatchObject({ ok: true });
  });

  it('refuses the right id with another secret, an unknown id, and another product', () => {
    const registry = new TokenRegistry();
    const { id, secret } = issued(registry);
    const other = issued(registry, 8);
    const flipped = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const header of [
      `Bearer ${id}|${flipped}`,
      `Bearer ${id}|${other.secret}`,
      `Bearer 999|${secret}`,
      `Bearer ${id}|${secret.slice(0, -1)}`,
    ]) {
      expect(registry.lookup('collection', header)).toEqual({ ok: false, problem: 'unknown' });
    }
    expect(registry.lookup('airtime', `Bearer ${id}|${secret}`)).toEqual({
      ok: false,
      problem: 'unknown',
    });
  });

  it('tells missing from malformed', () => {
    const registry = new TokenRegistry();
    const { id, secret } = issued(registry);
    for (const header of [undefined, '', '   ']) {
      expect(registry.lookup('collection', header)).toEqual({ ok: false, problem: 'missing' });
    }
    for (const header of [
      `bearer ${id}|${secret}`,
      `Bearer  ${id}|${secret}`,
      `Token ${id}|${secret}`,
      `Bearer ${secret}`,
      `Bearer x${id}|${secret}`,
      `Bearer ${id}|${secret}|x`,
      `Bearer ${id}|${secret}=`,
      `Bearer ${id}|`,
      `Bearer ${id}|${'a'.repeat(201)}`,
      'Bearer',
    ]) {
      expect(registry.lookup('collection', header)).toEqual({ ok: false, problem: 'malformed' });
    }
    expect(registry.lookup('collection', `Bearer 1|${'a'.repeat(200)}`)).toEqual({
      ok: false,
      problem: 'unknown',
    });
  });

  it('refuses a revoked token on the very next lookup, however often it was accepted before', () => {
    const registry = new TokenRegistry();
    const { token, id } = issued(registry);
    const kept = issued(registry);
    for (let i = 0; i < 1000; i += 1) {
      expect(registry.lookup('collection', `Bearer ${token}`).ok).toBe(true);
    }
    registry.revoke(id);
    expect(registry.lookup('collection', `Bearer ${token}`)).toEqual({
      ok: false,
      problem: 'unknown',
    });
    expect(registry.lookup('collection', `Bearer ${kept.token}`).ok).toBe(true);
  });

  it('revokes the oldest token past the cap', () => {
    const registry = new TokenRegistry();
    const first = issued(registry);
    for (let i = 0; i < TOKENS_KEPT; i += 1) registry.issue('collection', 1);
    expect(registry.size).toBe(TOKENS_KEPT);
    expect(registry.lookup('collection', `Bearer ${first.token}`).ok).toBe(false);
  });
});
