/**
 * A canonical JSON text for a value: object keys sorted (by UTF-16 code unit, the order
 * `Array.prototype.sort` gives), no whitespace, everything else as `JSON.stringify` writes it
 * (`toJSON` honoured, boxed primitives unboxed, `undefined`/functions/symbols dropped from
 * objects and written as `null` in arrays, non-finite numbers as `null`).
 *
 * Two argument objects that differ only in key order therefore hash the same, and a value that
 * survives a JSON round trip (which every MCP request argument does) hashes the same before and
 * after it.
 *
 * Throws `TypeError` for a BigInt, like `JSON.stringify`, and `RangeError` for nesting deeper
 * than {@link MAX_DEPTH}, which is also how a cycle ends: request arguments come from the client,
 * so depth is bounded instead of trusting the call stack, and no set of visited objects is kept
 * (this runs twice per token).
 *
 * (`@parley/core` has a `canonicalJson` too; this package depends on nothing, and binds
 * whatever value it is given, so it keeps its own, which honours `toJSON` like `JSON.stringify`.)
 */
export function canonicalJson(value: unknown): string {
  // `JSON.stringify(undefined)` is `undefined`; a binding always needs text.
  return write(value, '', 0) ?? 'null';
}

/** Far deeper than any real tool argument, far shallower than the call stack. */
export const MAX_DEPTH = 1000;

function write(value: unknown, key: string, depth: number): string | undefined {
  if (typeof value === 'object' && value !== null) {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') value = toJSON.call(value, key) as unknown;
    if (value instanceof Number) value = Number(value);
    else if (value instanceof String) value = String(value);
    else if (value instanceof Boolean) value = value.valueOf();
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError('canonicalJson: a BigInt has no JSON form');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break; // null, arrays and records: below
  }
  if (value === null) return 'null';
  if (depth >= MAX_DEPTH) {
    throw new RangeError(`canonicalJson: nested deeper than ${MAX_DEPTH} (or cyclic)`);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += write(value[i], String(i), depth + 1) ?? 'null';
    }
    return out + ']';
  }
  const record = value as Record<string, unknown>;
  const names = Object.keys(record).sort();
  let out = '{';
  for (const name of names) {
    const text = write(record[name], name, depth + 1);
    if (text === undefined) continue;
    if (out.length > 1) out += ',';
    out += JSON.stringify(name) + ':' + text;
  }
  return out + '}';
}
