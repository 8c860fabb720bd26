// A store whose move ignores the status the ledger read (no compare-and-set), run through the
// conformance kit by each consumer with its own module system's copy of pesakit: the case where
// two callers race one record to a final status must fail.
const raceCase =
  'effects: the final transition is the claim; the handler runs until it completes › exactly one of many concurrent final transitions wins';

/** The names of the cases the broken store fails (`verifyStore` and the store from one build). */
async function failedByBrokenStore(verifyStore, MemoryReferenceStore) {
  const open = async ({ now }) => {
    const inner = new MemoryReferenceStore({ now });
    const move = async (reference, change) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const current = await inner.records.get(reference);
      return inner.records.move(reference, { ...change, expected: current.status });
    };
    return { ...inner, records: { ...inner.records, move }, close: () => inner.close() };
  };
  const result = await verifyStore({ persistent: false, open }, { only: [raceCase] });
  return result.failed.map(({ name }) => name);
}

module.exports = { failedByBrokenStore };
