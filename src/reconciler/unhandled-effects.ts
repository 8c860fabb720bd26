import { type EffectKind, effectKindNames, effectKindOf } from '../references/effects.js';
import type { ReferenceStore } from '../references/index.js';

/**
 * The due effects of the kinds this process has no handler for, by kind (up to 10,000 read): a
 * receiver may run them; a count that stays or grows means no process has that handler.
 */
export async function countUnhandledEffects(
  store: ReferenceStore,
  handles: readonly EffectKind[],
): Promise<Partial<Record<EffectKind, number>>> {
  const counts: Partial<Record<EffectKind, number>> = {};
  const others = effectKindNames.filter((kind) => !handles.includes(kind));
  if (others.length === 0) return counts;
  for (const record of await store.listEffects('due', { handles: others, limit: 10_000 })) {
    const kind = effectKindOf(record);
    if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}
