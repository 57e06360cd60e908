/**
 * A JSON text for a value with object keys sorted at every depth, so `{a, b}` and `{b, a}` give
 * the same cache key. Request arguments come off the wire as JSON, so only JSON values need to be
 * handled; anything else is written the way `JSON.stringify` would (`undefined` dropped from
 * objects, `null` in arrays). Depth is bounded because arguments come from the client.
 */

const MAX_DEPTH = 100;

export function canonicalJson(value: unknown): string {
  return write(value, 0) ?? 'null';
}

function write(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'number' && !Number.isFinite(value) ? 'null' : JSON.stringify(value);
  }
  if (depth >= MAX_DEPTH) {
    throw new RangeError(`canonicalJson: nested deeper than ${MAX_DEPTH} (or cyclic).`);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => write(item, depth + 1) ?? 'null').join(',')}]`;
  }
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const text = write((value as Record<string, unknown>)[key], depth + 1);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
