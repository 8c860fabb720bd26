import { describe, expect, it } from 'vitest';
import { oversizedStrings } from '../../src/sandbox/http/string-limits.js';

// Each field's own limit, or the default for fields the table does not name: the boundaries.

describe('oversizedStrings', () => {
  it('passes bodies whose strings all fit, however nested', () => {
    expect(oversizedStrings({ ref_id: '991234567890' })).toBeUndefined();
    expect(
      oversizedStrings({ password: 'p'.repeat(128), description: 'd'.repeat(255) }),
    ).toBeUndefined();
    expect(oversizedStrings({ a: [{ b: ['x'.repeat(2048)] }], n: 1, z: null })).toBeUndefined();
    expect(oversizedStrings(undefined)).toBeUndefined();
    expect(oversizedStrings(42)).toBeUndefined();
  });

  it('names a field just past its own limit, the shortest one included', () => {
    expect(oversizedStrings({ password: 'p'.repeat(129) })).toEqual({
      password: ['The password may not be greater than 128 characters.'],
    });
    expect(oversizedStrings({ description: 'd'.repeat(256) })).toEqual({
      description: ['The description may not be greater than 255 characters.'],
    });
    expect(oversizedStrings({ description: 'd'.repeat(200) })).toBeUndefined();
  });

  it('finds a long string deep in arrays and objects, with its dotted path', () => {
    expect(oversizedStrings({ data: { items: [1, { note: 'n'.repeat(2049) }] } })).toEqual({
      'data.items.1.note': ['The data.items.1.note may not be greater than 2048 characters.'],
    });
    expect(oversizedStrings('b'.repeat(2049))).toEqual({
      body: ['The body may not be greater than 2048 characters.'],
    });
  });
});
