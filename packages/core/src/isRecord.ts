/**
 * True when `value` is a non-null object that is not an array (`{ a: 1 }` is, `[1]` and `null`
 * are not): something whose keys can be read, such as a parsed JSON object. Every package of
 * Parley checks untrusted values with it. It looks no further: a class instance, a `Map` or an
 * object without a prototype is a record too, so check the prototype yourself when that
 * matters.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
