/** The engine's GET callback: `data[amount]=…` or `data.amount=…`, converted when they parse. */
export function engineCallbackFromQuery(rawUrl: string): Record<string, unknown> {
  const query = rawUrl.includes('?') ? rawUrl.slice(rawUrl.indexOf('?') + 1) : '';
  const payload: { data?: Record<string, unknown>; [field: string]: unknown } = {};
  const data: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    const nested = /^data(?:\[(\w+)\]|\.(\w+))$/.exec(key);
    const field = nested ? (nested[1] ?? nested[2]) : undefined;
    if (field !== undefined) {
      data[field] = field === 'amount' ? numeric(value) : value;
      payload.data = data;
    } else if (key === 'status') {
      payload[key] = boolean(value);
    } else if (key !== 'data') {
      payload[key] = value;
    }
  }
  return payload;
}

function numeric(value: string): number | string {
  return /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

function boolean(value: string): boolean | string {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return value;
}
