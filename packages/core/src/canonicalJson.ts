import { checkOptionKeys, optionKeys } from './optionKeys.ts';

/** Options of {@link canonicalJson}. */
export interface CanonicalJsonOptions {
  /**
   * The deepest nesting written; deeper, which is also how a cycle ends, is a `RangeError`.
   * Bound it when the value comes from a client. Default 1000.
   */
  maxDepth?: number;
  /**
   * The canonical text of objects already written, used as is: for values that are immutable
   * once built (a schema shared by many requests), so they are written once.
   */
  known?: WeakMap<object, string>;
}

const DEFAULT_MAX_DEPTH = 1000;

const OPTION_KEYS = optionKeys<CanonicalJsonOptions>()(['maxDepth', 'known']);

/**
 * JSON text for a value with object keys sorted at every depth (by UTF-16 code unit, the order
 * `Array.prototype.sort` gives) and no whitespace, so equal values give equal text whatever the
 * order their keys were set in: for cache keys and digests. It is meant for JSON values (what
 * came off the wire, what goes on it). Anything else is written as `JSON.stringify` writes a
 * value on its own: an object property whose value is `undefined` is left out, while
 * `undefined`, a function or a symbol anywhere else, and a non-finite number, is `null`; a BigInt
 * throws a `TypeError`. `toJSON` is not called (a `Date` is an object without keys).
 *
 * The text is part of what `@parley/server` seals into `requestState` (as a digest of each
 * ask), so it never changes for a value it already writes.
 */
export function canonicalJson(value: unknown, options?: CanonicalJsonOptions): string {
  // A key loop, not the key list `checkOptionKeys` makes: this runs on every ask the server
  // digests, and the list is made only to name a key that is wrong (`for…in` sees inherited
  // keys too, which the check refuses; symbol keys are looked for apart).
  if (options !== undefined && options !== null) {
    for (const key in options) {
      if ((key !== 'maxDepth' && key !== 'known') || !Object.hasOwn(options, key)) {
        checkOptionKeys('canonicalJson', 'options', options, OPTION_KEYS);
      }
    }
    if (Object.getOwnPropertySymbols(options).length > 0) {
      checkOptionKeys('canonicalJson', 'options', options, OPTION_KEYS);
    }
  }
  return write(value, 0, options?.maxDepth ?? DEFAULT_MAX_DEPTH, options?.known);
}

// Plain loops and one string: the server writes every ask of every round with this.
function write(
  value: unknown,
  depth: number,
  maxDepth: number,
  known: WeakMap<object, string> | undefined,
): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const written = known?.get(value);
  if (written !== undefined) return written;
  if (depth >= maxDepth) {
    throw new RangeError(`canonicalJson: nested deeper than ${maxDepth} (or cyclic).`);
  }
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += write(value[index], depth + 1, maxDepth, known);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let text = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(key)}:${write(item, depth + 1, maxDepth, known)}`;
  }
  return `${text}}`;
}
