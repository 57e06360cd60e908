import type { FieldDescriptor } from './fieldDescriptor.ts';
import { describeValue, ownValue } from './values.ts';

/**
 * The two moods a `requestedSchema` is read in, and the small checks both share.
 *
 * - `strict` is for schemas Parley is about to send: only the spec's restricted subset, every
 *   keyword well-formed, every `default` a valid answer. Anything else is a `TypeError` naming
 *   the field, so a bad schema never reaches a client.
 * - `lenient` is for schemas a client received: real servers send extras (a top-level `title`,
 *   `pattern` from the 2025-11-25 example, `items.oneOf` from SEP-1330's text), so unknown
 *   keywords and broken labels are ignored. Only what makes a field unanswerable (no type,
 *   options that are not strings, a nested object) is refused.
 */
export type ReadMode = 'strict' | 'lenient';

const BASE_KEYS = ['type', 'title', 'description', 'default'];

/** The keywords each field shape may carry in strict mode. */
export const KEYS_BY_SHAPE: Record<
  'string' | 'enum' | 'oneOf' | 'number' | 'boolean' | 'array',
  string[]
> = {
  string: [...BASE_KEYS, 'minLength', 'maxLength', 'format'],
  enum: [...BASE_KEYS, 'enum', 'enumNames'],
  oneOf: [...BASE_KEYS, 'oneOf'],
  number: [...BASE_KEYS, 'minimum', 'maximum'],
  boolean: BASE_KEYS,
  array: [...BASE_KEYS, 'minItems', 'maxItems', 'items'],
};

// Keywords people reach for that the subset deliberately lacks, with the reason to give.
const KNOWN_UNSUPPORTED: Record<string, string> = {
  pattern: 'regex patterns are not in the spec’s restricted subset',
  exclusiveMinimum: 'the spec has only inclusive bounds; use minimum',
  exclusiveMaximum: 'the spec has only inclusive bounds; use maximum',
  multipleOf: 'the spec’s subset has no multipleOf',
  uniqueItems: 'the spec’s subset has no uniqueItems',
  additionalProperties: 'the spec’s subset has no additionalProperties',
};

export class ReadContext {
  constructor(
    readonly mode: ReadMode,
    readonly api: string,
  ) {}

  get strict(): boolean {
    return this.mode === 'strict';
  }

  fail(field: string | undefined, reason: string): never {
    throw new TypeError(`${this.api}: ${field === undefined ? '' : `field '${field}' `}${reason}`);
  }

  /** Strict mode refuses keywords outside `allowed`; lenient mode ignores them. */
  onlyKeys(field: string | undefined, record: Record<string, unknown>, allowed: string[]): void {
    if (!this.strict) return;
    for (const key of Object.keys(record)) {
      if (allowed.includes(key)) continue;
      const why = KNOWN_UNSUPPORTED[key] ?? 'it is not part of the restricted elicitation schema';
      this.fail(field, `has the keyword '${key}', which cannot be sent: ${why}.`);
    }
  }

  optionalString(field: string, record: Record<string, unknown>, key: string): string | undefined {
    const value = ownValue(record, key);
    if (value === undefined || typeof value === 'string') return value;
    if (!this.strict) return undefined;
    return this.fail(field, `has a ${key} that is ${describeValue(value)}, not a string.`);
  }

  /** A length or item count: a whole number, at least 0. */
  count(field: string, record: Record<string, unknown>, key: string): number | undefined {
    const value = ownValue(record, key);
    if (value === undefined) return undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
    if (!this.strict) return undefined;
    return this.fail(field, `has ${key} ${describeValue(value)}; it must be a whole number ≥ 0.`);
  }

  bound(field: string, record: Record<string, unknown>, key: string): number | undefined {
    const value = ownValue(record, key);
    if (value === undefined) return undefined;
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (!this.strict) return undefined;
    return this.fail(field, `has ${key} ${describeValue(value)}; it must be a finite number.`);
  }

  /** Crossed bounds leave no valid answer, so they are refused in both moods. */
  range(field: string, low: number | undefined, high: number | undefined, what: string): void {
    if (low !== undefined && high !== undefined && low > high) {
      this.fail(field, `has a minimum ${what} (${low}) above its maximum (${high}).`);
    }
  }

  /** The values without repeats; strict mode refuses a repeat. */
  distinct(field: string, values: readonly string[]): string[] {
    const seen = new Set<string>();
    for (const value of values) {
      if (seen.has(value) && this.strict) this.fail(field, `lists the option '${value}' twice.`);
      seen.add(value);
    }
    return [...seen];
  }
}

/** Assign only defined values, so descriptors never carry `key: undefined`. */
export function assign<K extends keyof FieldDescriptor>(
  target: FieldDescriptor,
  key: K,
  value: FieldDescriptor[K] | undefined,
): void {
  if (value !== undefined) target[key] = value;
}
