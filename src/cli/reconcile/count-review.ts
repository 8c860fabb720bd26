import type { ReferenceStore } from '../../references/index.js';

/**
 * How many records wait in `needs_review` across the whole store — the exit code reflects all
 * of them, not only this pass's, so cron keeps alerting until a person has decided. Pages
 * through `listReview` (keyset), so a large backlog costs pages, not memory.
 */
export async function countNeedsReview(store: ReferenceStore, pageSize = 500): Promise<number> {
  let count = 0;
  let after: string | undefined;
  for (;;) {
    const page = await store.listReview({
      limit: pageSize,
      ...(after !== undefined ? { after } : {}),
    });
    count += page.length;
    const last = page.at(-1);
    if (page.length < pageSize || last === undefined) return count;
    after = last.merchantReference;
  }
}
