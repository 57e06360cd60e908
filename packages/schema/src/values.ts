/**
 * Small helpers for looking at values whose shape is not known yet: what authors pass in, what
 * arrives over the wire. Kept in one place so every error message describes values the same way.
 */

/**
 * A plain `{…}` object: not an array, not null, not a class instance (a Date, a zod schema).
 * Judged by the prototype chain's length rather than by `Object.prototype` itself, so an object
 * from another realm (a `vm` context, an iframe) still counts.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** An own property, without tripping over keys such as `__proto__` or `constructor`. */
export function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

const MAX_SHOWN = 40;

/**
 * A short, human description of a value for an error message ("the number 42", "null"). It shows
 * strings and numbers: for what an author wrote, or for the person who typed the answer.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string': {
      const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
      return `the string ${JSON.stringify(shown)}`;
    }
    case 'number':
    case 'boolean':
    case 'bigint':
      return `the ${typeof value} ${String(value)}`;
    case 'object': {
      const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return isPlainObject(value) || typeof name !== 'string' || name === ''
        ? 'an object'
        : `a ${name}`;
    }
    default:
      return `a ${typeof value}`;
  }
}

/**
 * What kind of value it is, never the value ("a string", "a number"): for messages that may be
 * logged, where an answer must not appear.
 */
export function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number that is not finite';
  // An object is described by its class, which says nothing of what it holds.
  return typeof value === 'object' ? describeValue(value) : `a ${typeof value}`;
}

/** `'a', 'b', 'c'` (capped), for listing options in a message. */
export function quoteList(values: readonly string[], max = 10): string {
  const shown = values.slice(0, max).map((value) => `'${value}'`);
  return values.length > max ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** Length as JSON Schema counts it: in code points, so an emoji is one character. */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}
