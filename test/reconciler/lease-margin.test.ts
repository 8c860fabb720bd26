import { describe, expect, it } from 'vitest';
import { LeaseMargin } from '../../src/reconciler/lease-margin.js';

describe('a page’s lease margin', () => {
  // At concurrency 32 every request of a page in flight
  // listens to the page's one signal, and Node printed MaxListenersExceededWarning past 10.
  it('takes as many abort listeners as requests in flight without a leak warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const margin = new LeaseMargin(() => Number.POSITIVE_INFINITY);
      const listeners = Array.from({ length: 256 }, () => () => {});
      for (const listener of listeners) margin.signal.addEventListener('abort', listener);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.name)).toEqual([]);
      for (const listener of listeners) margin.signal.removeEventListener('abort', listener);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('once aborted stays aborted, with LeaseMarginSpent as the reason', () => {
    const margin = new LeaseMargin(() => 5);
    expect(margin.until).toBe(5);
    expect(margin.aborted).toBe(false);
    margin.abort();
    expect(margin.aborted).toBe(true);
    expect((margin.signal.reason as Error).name).toBe('LeaseMarginSpent');
  });
});
