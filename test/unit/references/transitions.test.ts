import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  canTransition,
  isFinalStatus,
  openStatuses,
  transactionStatuses,
} from '../../../src/references/index.js';
import { schemaStatuses } from '../../../src/references/sql/migrations.js';

describe('status moves only forward', () => {
  it('success and failed are the only final statuses', () => {
    expect(transactionStatuses.filter(isFinalStatus)).toEqual(['success', 'failed']);
    expect(openStatuses).toEqual(
      transactionStatuses.filter((status) => !isFinalStatus(status) && status !== 'needs_review'),
    );
  });

  it('needs_review waits for a person: reachable from every open status, left by no transition', () => {
    for (const from of openStatuses) expect(canTransition(from, 'needs_review')).toBe(true);
    expect(allowedTransitions.needs_review).toEqual([]);
    expect(isFinalStatus('needs_review')).toBe(false);
  });

  it('success and failed are final; pending never becomes unknown, unknown may return to pending', () => {
    expect(allowedTransitions.success).toEqual([]);
    expect(allowedTransitions.failed).toEqual([]);
    expect(allowedTransitions.pending).not.toContain('unknown');
    expect(allowedTransitions.unknown).toContain('pending');
  });

  it('the SQL status check allows exactly the statuses the code knows', () => {
    expect([...schemaStatuses].sort()).toEqual([...transactionStatuses].sort());
  });

  it('no status can reach itself or initiating, so nothing loops back to the start', () => {
    for (const from of transactionStatuses) {
      expect(canTransition(from, from)).toBe(false);
      expect(canTransition(from, 'initiating')).toBe(false);
    }
  });

  it('every open status can still end in success or failed (unknown is never failed by default)', () => {
    for (const from of openStatuses) {
      expect(allowedTransitions[from]).toEqual(expect.arrayContaining(['success', 'failed']));
    }
  });

  it('following allowed moves always reaches a final status: there is no cycle', () => {
    const depth = (status: (typeof transactionStatuses)[number], seen: string[]): number => {
      expect(seen).not.toContain(status);
      const next = allowedTransitions[status];
      return next.length === 0
        ? 0
        : 1 + Math.max(...next.map((to) => depth(to, [...seen, status])));
    };
    expect(depth('initiating', [])).toBe(3); // initiating → unknown → pending → final
  });
});
