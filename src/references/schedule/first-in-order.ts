/**
 * `[...items].sort(order).slice(0, limit)` without sorting everything: a bounded max-heap,
 * O(m log limit), since the memory lease picks a small page from every due record.
 */
export function firstInOrder<T>(
  items: Iterable<T>,
  limit: number,
  order: (a: T, b: T) => number,
): T[] {
  const heap: T[] = [];
  if (limit <= 0) return heap;
  for (const item of items) {
    if (heap.length < limit) {
      heap.push(item);
      siftUp(heap, heap.length - 1, order);
    } else if (order(item, heap[0] as T) < 0) {
      heap[0] = item;
      siftDown(heap, 0, order);
    }
  }
  return heap.sort(order);
}

/** Max-heap by `order`: each parent comes after (or equals) its children. */
function siftUp<T>(heap: T[], at: number, order: (a: T, b: T) => number): void {
  let child = at;
  while (child > 0) {
    const parent = (child - 1) >> 1;
    if (order(heap[parent] as T, heap[child] as T) >= 0) return;
    swap(heap, parent, child);
    child = parent;
  }
}

function siftDown<T>(heap: T[], at: number, order: (a: T, b: T) => number): void {
  let parent = at;
  for (;;) {
    const left = 2 * parent + 1;
    const right = left + 1;
    let largest = parent;
    if (left < heap.length && order(heap[left] as T, heap[largest] as T) > 0) largest = left;
    if (right < heap.length && order(heap[right] as T, heap[largest] as T) > 0) largest = right;
    if (largest === parent) return;
    swap(heap, parent, largest);
    parent = largest;
  }
}

function swap<T>(heap: T[], i: number, j: number): void {
  const value = heap[i] as T;
  heap[i] = heap[j] as T;
  heap[j] = value;
}
