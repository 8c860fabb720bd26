import { describe, expect, it } from 'vitest';
import { isoClock } from '../../src/sandbox/iso-clock.js';

describe('isoClock: the clock’s time as ISO, formatted once per millisecond', () => {
  it('follows a clock that moves on, stands still, goes back and jumps', () => {
    let now = Date.UTC(2026, 10, 23, 16, 0, 0, 0);
    const iso = isoClock(() => new Date(now));
    expect(iso()).toBe('2026-11-23T16:00:00.000Z');
    expect(iso()).toBe('2026-11-23T16:00:00.000Z');
    now += 1;
    expect(iso()).toBe('2026-11-23T16:00:00.001Z');
    now -= 3_600_000;
    expect(iso()).toBe('2026-11-23T15:00:00.001Z');
    now += 86_400_000 * 40;
    expect(iso()).toBe('2027-01-02T15:00:00.001Z');
  });

  it('still throws for an invalid date, as toISOString does', () => {
    const iso = isoClock(() => new Date(Number.NaN));
    expect(() => iso()).toThrow(RangeError);
  });
});
