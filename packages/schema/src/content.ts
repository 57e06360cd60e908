import { InvalidAnswerError, type ElicitContentValue } from '@parley/core';

import type { FieldDescriptor } from './fieldDescriptor.ts';
import { valueProblem } from './fieldValue.ts';
import { problem, refusal, typeProblem, type ValueProblem } from './valueProblem.ts';
import { describeKind, describeValue, isPlainObject, quoteList } from './values.ts';

/**
 * What happens to keys the schema does not have. The server side drops them: a client that
 * sends a stray key has still answered every field, and the author's data never contains keys
 * it did not ask for. The client side refuses them: there the keys come from the client's own
 * code, and a misspelt field name should fail loudly before the answer is sent.
 */
export type UnknownKeys = 'drop' | 'refuse';

function wireShapeProblem(value: unknown): ValueProblem | undefined {
  if (value === null) return problem('null is not an answer; leave the field out instead');
  if (typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    return Number.isFinite(value) ? undefined : problem('expected a finite number', String(value));
  }
  if (Array.isArray(value)) {
    const index = value.findIndex((item) => typeof item !== 'string');
    if (index === -1) return undefined;
    const item: unknown = value[index];
    return {
      reason: `lists must hold strings only; item ${index} is ${describeKind(item)}`,
      withAnswer: `lists must hold strings only; item ${index} is ${describeValue(item)}`,
    };
  }
  const not = 'answers are strings, numbers, booleans or lists of strings, not';
  return { reason: `${not} ${describeKind(value)}`, withAnswer: `${not} ${describeValue(value)}` };
}

/** The field names of each compiled schema: answers are read against the same list every time. */
const fieldNames = new WeakMap<readonly FieldDescriptor[], readonly string[]>();

function namesOf(fields: readonly FieldDescriptor[]): readonly string[] {
  let names = fieldNames.get(fields);
  if (names === undefined) {
    names = fields.map((field) => field.name);
    fieldNames.set(fields, names);
  }
  return names;
}

/**
 * The known fields present in `content`, each checked to be a wire value (string, number,
 * boolean or list of strings). `undefined` content counts as empty: an accepted result may omit
 * `content` when every field is optional. A field set to `undefined` counts as left out.
 *
 * A `Map`, so a field called `__proto__` or `constructor` is just a field.
 */
export function readContent(
  content: unknown,
  fields: readonly FieldDescriptor[],
  unknownKeys: UnknownKeys,
): Map<string, ElicitContentValue> {
  const record = new Map<string, ElicitContentValue>();
  if (content === undefined) return record;
  if (!isPlainObject(content)) {
    throw refusal(undefined, typeProblem('expected an object of field values', content));
  }
  const names = namesOf(fields);
  for (const key in content) {
    if (!Object.hasOwn(content, key)) continue;
    const value = (content as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (!names.includes(key)) {
      if (unknownKeys === 'drop') continue;
      const known = names.length ? `its fields are ${quoteList(names, 20)}` : 'it has no fields';
      throw new InvalidAnswerError({
        field: key,
        reason: `is not a field of the requested schema; ${known}`,
      });
    }
    const found = wireShapeProblem(value);
    if (found !== undefined) throw refusal(key, found);
    record.set(key, (Array.isArray(value) ? [...value] : value) as ElicitContentValue);
  }
  return record;
}

/** Fills fields the answer left out from the schema's defaults (SEP-1034), in place. */
export function applyDefaults(
  record: Map<string, ElicitContentValue>,
  fields: readonly FieldDescriptor[],
): Map<string, ElicitContentValue> {
  for (const field of fields) {
    if (record.has(field.name) || field.default === undefined) continue;
    record.set(field.name, Array.isArray(field.default) ? [...field.default] : field.default);
  }
  return record;
}

/** Refuses an answer that left out a required field (defaults already filled); returns it. */
export function requireFields(
  record: Map<string, ElicitContentValue>,
  fields: readonly FieldDescriptor[],
): Map<string, ElicitContentValue> {
  const missing = fields.find((field) => field.required && !record.has(field.name));
  if (missing !== undefined) {
    throw new InvalidAnswerError({ field: missing.name, reason: 'is required' });
  }
  return record;
}

/**
 * The full check against the wire schema: read, fill defaults, then every field in schema
 * order is present when required and valid when present. Returns the content in schema order.
 */
export function checkContent(
  content: unknown,
  fields: readonly FieldDescriptor[],
  unknownKeys: UnknownKeys,
): Record<string, ElicitContentValue> {
  const record = applyDefaults(readContent(content, fields, unknownKeys), fields);
  const checked: Record<string, ElicitContentValue> = {};
  for (const field of fields) {
    const value = record.get(field.name);
    if (value === undefined) {
      if (field.required)
        throw new InvalidAnswerError({ field: field.name, reason: 'is required' });
      continue;
    }
    const found = valueProblem(field, value);
    if (found !== undefined) throw refusal(field.name, found);
    setField(checked, field.name, value);
  }
  return checked;
}

/**
 * `target[name] = value`, as an own data property even for a field named `__proto__` (which an
 * assignment would take for the prototype).
 */
export function setField(target: object, name: string, value: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(target, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else (target as Record<string, unknown>)[name] = value;
}
