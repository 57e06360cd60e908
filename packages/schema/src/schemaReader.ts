import type { ElicitContentValue } from '@parley/core';

import type { FieldDescriptor } from './fieldDescriptor.ts';
import { fieldValueProblem } from './fieldValue.ts';
import { readArrayField, readStringField } from './optionReader.ts';
import { KEYS_BY_SHAPE, ReadContext, assign, type ReadMode } from './readContext.ts';
import { describeValue, isPlainObject, ownValue } from './values.ts';

/**
 * Reads a `requestedSchema` into field descriptors: the one place the restricted schema is
 * understood. Parley's own schemas are read strictly before they are sent; received ones are
 * read leniently (see `ReadMode`).
 */

const TOP_LEVEL_KEYS = ['$schema', 'type', 'properties', 'required', 'title'];

function readField(
  ctx: ReadContext,
  name: string,
  raw: unknown,
  required: boolean,
): FieldDescriptor {
  if (!isPlainObject(raw)) return ctx.fail(name, `is ${describeValue(raw)}, not a field schema.`);
  let type = ownValue(raw, 'type');
  // A select without `type` is a known server mistake (clients differ on it); still answerable.
  if (type === undefined && !ctx.strict && (ownValue(raw, 'enum') ?? ownValue(raw, 'oneOf'))) {
    type = 'string';
  }
  const base: FieldDescriptor = { name, kind: 'string', required };
  assign(base, 'title', ctx.optionalString(name, raw, 'title'));
  assign(base, 'description', ctx.optionalString(name, raw, 'description'));
  let field: FieldDescriptor;
  switch (type) {
    case 'string':
      field = readStringField(ctx, raw, base);
      break;
    case 'number':
    case 'integer':
      ctx.onlyKeys(name, raw, KEYS_BY_SHAPE.number);
      field = { ...base, kind: type };
      assign(field, 'minimum', ctx.bound(name, raw, 'minimum'));
      assign(field, 'maximum', ctx.bound(name, raw, 'maximum'));
      ctx.range(name, field.minimum, field.maximum, 'value');
      break;
    case 'boolean':
      ctx.onlyKeys(name, raw, KEYS_BY_SHAPE.boolean);
      field = { ...base, kind: 'boolean' };
      break;
    case 'array':
      field = readArrayField(ctx, raw, base);
      break;
    case 'object':
      return ctx.fail(name, 'is a nested object; elicitation schemas are flat.');
    default:
      return ctx.fail(
        name,
        `has type ${describeValue(type)}; the spec allows 'string', 'number', 'integer', ` +
          "'boolean' and 'array' (multi-select).",
      );
  }
  return withDefault(ctx, field, ownValue(raw, 'default'));
}

/** SEP-1034: a default must itself be a valid answer; leniently, a bad one is not pre-filled. */
function withDefault(ctx: ReadContext, field: FieldDescriptor, value: unknown): FieldDescriptor {
  if (value === undefined) return field;
  const problem = fieldValueProblem(field, value);
  if (problem === undefined) {
    field.default = (Array.isArray(value) ? [...value] : value) as ElicitContentValue;
  } else if (ctx.strict) {
    ctx.fail(field.name, `has a default that is not a valid answer: ${problem}.`);
  }
  return field;
}

function requiredNames(ctx: ReadContext, value: unknown, names: string[]): Set<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    if (!ctx.strict) return new Set();
    return ctx.fail(undefined, 'required must be a list of field names.');
  }
  if (ctx.strict) {
    const unknown = value.find((name: string) => !names.includes(name));
    if (unknown !== undefined) {
      ctx.fail(undefined, `required names '${unknown}', which is not in properties.`);
    }
    if (new Set(value).size !== value.length) ctx.fail(undefined, 'required lists a field twice.');
  }
  return new Set(value as string[]);
}

/** The field descriptors of `schema`, or a `TypeError` starting with `api`. */
export function readSchema(schema: unknown, mode: ReadMode, api: string): FieldDescriptor[] {
  const ctx = new ReadContext(mode, api);
  if (!isPlainObject(schema)) {
    return ctx.fail(undefined, `expected a schema object, got ${describeValue(schema)}.`);
  }
  if (ownValue(schema, 'type') !== 'object') {
    const type = describeValue(ownValue(schema, 'type'));
    return ctx.fail(undefined, `expected type 'object' at the top, got ${type}.`);
  }
  const properties = ownValue(schema, 'properties');
  if (!isPlainObject(properties)) {
    return ctx.fail(undefined, 'expected a properties object (it may be empty).');
  }
  ctx.onlyKeys(undefined, schema, TOP_LEVEL_KEYS);
  const dialect = ownValue(schema, '$schema');
  if (ctx.strict && dialect !== undefined && typeof dialect !== 'string') {
    ctx.fail(undefined, '$schema must be a string.');
  }
  const required = requiredNames(ctx, ownValue(schema, 'required'), Object.keys(properties));
  return Object.entries(properties).map(([name, raw]) =>
    readField(ctx, name, raw, required.has(name)),
  );
}
