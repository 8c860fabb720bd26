import { describe, expect, it } from 'vitest';
import type { Death } from '../../soak/fleet.js';
import { checkHandlerOnce } from '../../soak/handler-once.js';
import type { HandlerRun } from '../../soak/handler-runs.js';

const run = (id: number, instance: string, at: number, handler = 'onPaid'): HandlerRun => ({
  id,
  merchantReference: 'order-1',
  handler,
  status: 'success',
  instance,
  at,
});

describe('no handler runs twice unless its process died between run and completion', () => {
  it('counts one run once', () => {
    const result = checkHandlerOnce([run(1, 'merchant-1#1', 1000)], []);
    expect(result.effective.get('order-1')).toBe(1);
    expect(result.violations).toEqual([]);
  });

  it('reports a second run when the first run’s process lived on', () => {
    const result = checkHandlerOnce(
      [run(1, 'merchant-1#1', 1000), run(2, 'merchant-2#1', 1500)],
      [],
    );
    expect(result.effective.get('order-1')).toBe(2);
    expect(result.violations).toEqual([
      {
        reference: 'order-1',
        message: 'ran 2 times: onPaid in merchant-1#1, onPaid in merchant-2#1',
      },
    ]);
  });

  it('excuses a run whose process was killed right after it', () => {
    const deaths: Death[] = [{ instance: 'merchant-1#1', at: 1200, how: 'killed' }];
    const result = checkHandlerOnce(
      [run(1, 'merchant-1#1', 1000), run(2, 'merchant-2#1', 1500)],
      deaths,
    );
    expect(result.effective.get('order-1')).toBe(1);
    expect(result.excused).toBe(1);
    expect(result.violations).toEqual([]);
  });

  it('excuses a run that started as the SIGKILL was on its way', () => {
    const deaths: Death[] = [{ instance: 'merchant-1#1', at: 995, how: 'killed' }];
    const result = checkHandlerOnce(
      [run(1, 'merchant-1#1', 1000), run(2, 'merchant-2#1', 61_000)],
      deaths,
    );
    expect(result.violations).toEqual([]);
  });

  it('does not excuse a run whose process died long after it completed', () => {
    const deaths: Death[] = [{ instance: 'merchant-1#1', at: 60_000, how: 'killed' }];
    const result = checkHandlerOnce(
      [run(1, 'merchant-1#1', 1000), run(2, 'merchant-2#1', 1500)],
      deaths,
    );
    expect(result.violations).toHaveLength(1);
  });

  it('reports opposite handlers for one record', () => {
    const deaths: Death[] = [{ instance: 'merchant-1#1', at: 1100, how: 'killed' }];
    const result = checkHandlerOnce(
      [run(1, 'merchant-1#1', 1000, 'onPaid'), run(2, 'merchant-2#1', 1500, 'onFailed')],
      deaths,
    );
    expect(result.violations).toEqual([
      { reference: 'order-1', message: 'ran opposite handlers: onPaid, onFailed' },
    ]);
  });
});
