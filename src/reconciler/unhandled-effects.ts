import { type EffectKind, effectKindNames, effectKindOf } from '../references/effects.js';
import type { ReferenceStore } from '../references/index.js';

/** Due effects of the kinds not in `handles`, by kind (up to 10,000 read). */
export async function countUnhandledEffects(
  store: Pick<ReferenceStore, 'effects'>,
  handles: readonly EffectKind[],
) {
  const counts: Partial<Record<EffectKind, number>> = {};
  const others = effectKindNames.filter((kind) => !handles.includes(kind));
  const due = others.length
    ? await store.effects.list('due', { handles: others, limit: 10_000 })
    : [];
  for (const kind of due.map(effectKindOf)) if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
