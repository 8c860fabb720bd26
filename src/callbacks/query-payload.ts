/** A GET callback's payload: `payload=<JSON>`, or flat fields (`data[amount]=…`, `data.amount=…`). */
export function payloadFromQuery(
  params: URLSearchParams,
): string | Record<string, unknown> | undefined {
  const json = params.get('payload');
  if (json !== null) return json;
  const payload: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  let fields = 0;
  for (const [key, value] of params) {
    if (key === 'pesakit_ref' || key === 'data') continue;
    fields += 1;
    const nested = /^data(?:\[(\w+)\]|\.(\w+))$/.exec(key);
    const field = nested ? (nested[1] ?? nested[2]) : undefined;
    if (field !== undefined) {
      data[field] = field === 'amount' ? numeric(value) : value;
      payload['data'] = data;
    } else if (key === 'status') {
      payload[key] = boolean(value);
    } else {
      payload[key] = value;
    }
  }
  return fields === 0 ? undefined : payload;
}

function numeric(value: string): number | string {
  return /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

function boolean(value: string): boolean | string {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}
