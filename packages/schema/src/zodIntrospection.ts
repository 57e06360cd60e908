import type { PrimitiveFieldSchema } from '@parley/core';
import { globalRegistry } from 'zod/v4/core';

import type { ZodSchemaLike } from './responseType.ts';
import { multiSelectField, singleSelectField, withTitles } from './shorthands.ts';
import { describeValue, isPlainObject, ownValue } from './values.ts';
import { arrayKeywords, checkDefs, numberKeywords, stringKeywords } from './zodChecks.ts';

/**
 * One zod 4 schema turned into one field of the restricted elicitation schema, by walking
 * `_zod.def` (never `instanceof`: the author's zod copy need not be ours). Wrappers are peeled
 * from the outside in: `.optional()`, `.default()` and `.prefault()` make the field optional,
 * `.readonly()`, `.catch()` and the input side of a pipe (`.transform()`) change nothing on the
 * wire. What is left must be a string, number, boolean, string options, or a list of options.
 */

type Def = Record<string, unknown> & { type: string };

/** Whether `value` is a zod 4 schema (classic, mini or core, from any copy). */
export function isZodSchema(value: unknown): value is ZodSchemaLike {
  if (typeof value !== 'object' || value === null) return false;
  const internals = (value as { _zod?: unknown })._zod;
  if (typeof internals !== 'object' || internals === null) return false;
  const def = (internals as { def?: unknown }).def;
  return isPlainObject(def) && typeof def['type'] === 'string';
}

/** Whether `value` looks like a zod 3 schema, so the error can say what to do. */
export function isZod3Schema(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !('_zod' in value) &&
    '_def' in value &&
    typeof (value as { safeParse?: unknown }).safeParse === 'function'
  );
}

export function defOf(schema: unknown): Def {
  return (schema as ZodSchemaLike)._zod.def as Def;
}

/** Metadata from `.meta()` / `.describe()`; the registry lives on `globalThis`, shared by copies. */
function metaOf(schema: unknown): Record<string, unknown> | undefined {
  const own = (schema as { meta?: unknown }).meta;
  const meta: unknown =
    typeof own === 'function' ? own.call(schema) : globalRegistry.get(schema as never);
  return isPlainObject(meta) ? meta : undefined;
}

/** The field a zod schema becomes, and whether the answer must include it. */
export interface ZodField {
  schema: PrimitiveFieldSchema;
  required: boolean;
}

interface Peeled {
  base: unknown;
  required: boolean;
  default?: unknown;
  title?: string;
  description?: string;
  optionTitles?: Record<string, unknown>;
}

/** Peels wrappers off, collecting optionality, the default and metadata (outermost wins). */
function peel(schema: unknown, fail: (reason: string) => never): Peeled {
  const out: Peeled = { base: schema, required: true };
  let requiredSet = false;
  let defaultSet = false;
  for (let current = schema; ;) {
    const meta = metaOf(current);
    const title = meta && ownValue(meta, 'title');
    const description = meta && ownValue(meta, 'description');
    const optionTitles = meta && ownValue(meta, 'optionTitles');
    if (out.title === undefined && typeof title === 'string') out.title = title;
    if (out.description === undefined && typeof description === 'string') {
      out.description = description;
    }
    if (out.optionTitles === undefined && optionTitles !== undefined) {
      if (!isPlainObject(optionTitles))
        fail('has optionTitles that are not a { value: title } object.');
      out.optionTitles = optionTitles;
    }
    const def = defOf(current);
    switch (def.type) {
      case 'optional':
      case 'default':
      case 'prefault':
      case 'nonoptional':
        if (!requiredSet) {
          out.required = def.type === 'nonoptional';
          requiredSet = true;
        }
        if ((def.type === 'default' || def.type === 'prefault') && !defaultSet) {
          // Read once: zod evaluates a function default on every read.
          out.default = def['defaultValue'];
          defaultSet = true;
        }
        current = def['innerType'];
        continue;
      case 'readonly':
      case 'catch':
        current = def['innerType'];
        continue;
      case 'pipe':
        current = def['in'];
        continue;
      default:
        out.base = current;
        return out;
    }
  }
}

/** String options from an enum, a literal, or a union of those; `undefined` for anything else. */
function stringOptions(schema: unknown, fail: (reason: string) => never): string[] | undefined {
  const def = defOf(schema);
  let values: unknown[];
  if (def.type === 'enum') values = Object.values(def['entries'] as object);
  else if (def.type === 'literal') values = def['values'] as unknown[];
  else if (def.type === 'union') {
    const options = (def['options'] as unknown[]).map((option) => stringOptions(option, fail));
    if (options.some((option) => option === undefined)) return undefined;
    values = options.flat();
  } else return undefined;
  const bad = values.find((value) => typeof value !== 'string');
  if (bad !== undefined) {
    fail(
      `has the option ${describeValue(bad)}; options are strings` +
        (typeof bad === 'boolean' ? ' (use z.boolean() for yes/no).' : '.'),
    );
  }
  return [...new Set(values as string[])];
}

const REFUSALS: Record<string, string> = {
  object: 'is a nested object; elicitation schemas are flat. Ask for its fields at the top level.',
  record: 'is a record; elicitation schemas have a fixed set of fields.',
  map: 'is a map; elicitation schemas have a fixed set of fields.',
  nullable:
    'is nullable; answers are never null. Use .optional() for a field that may be left out.',
  date: "is z.date(), which JSON cannot carry; use z.iso.date() (a 'YYYY-MM-DD' string) or z.iso.datetime().",
  bigint: 'is a bigint, which JSON cannot carry; use z.number().int().',
  union:
    "is a union that is not a set of string options; the spec's subset has no composition beyond enums.",
  tuple: 'is a tuple; only lists of options (multi-select) can be sent.',
};

/** The wire field for a zod schema, or a `TypeError` (via `fail`) saying why there is none. */
export function zodField(schema: unknown, fail: (reason: string) => never): ZodField {
  const peeled = peel(schema, fail);
  const def = defOf(peeled.base);
  const head = {
    ...(peeled.title === undefined ? {} : { title: peeled.title }),
    ...(peeled.description === undefined ? {} : { description: peeled.description }),
  };
  const tail = peeled.default === undefined ? {} : { default: peeled.default };
  // Keys in the order people read them: type, labels, constraints, default.
  const field = (type: string, rest: object): PrimitiveFieldSchema =>
    ({ type, ...head, ...rest, ...tail }) as PrimitiveFieldSchema;

  const options = stringOptions(peeled.base, fail);
  if (options !== undefined) {
    const select = singleSelectField(withTitles(options, peeled.optionTitles, fail));
    const { type: _type, ...rest } = select;
    return { schema: field('string', rest), required: peeled.required };
  }
  if (peeled.optionTitles !== undefined && def.type !== 'array') {
    fail('has optionTitles but no options; put them on a z.enum() or z.literal([...]).');
  }
  switch (def.type) {
    case 'string':
      return {
        schema: field('string', stringKeywords(checkDefs(def), fail)),
        required: peeled.required,
      };
    case 'number': {
      const { type, ...bounds } = numberKeywords(checkDefs(def), fail);
      return { schema: field(type, bounds), required: peeled.required };
    }
    case 'boolean':
      return { schema: field('boolean', {}), required: peeled.required };
    case 'array':
      return { schema: field('array', arrayField(def, peeled, fail)), required: peeled.required };
    default:
      return fail(
        REFUSALS[def.type] ??
          `is a z.${def.type}(), which the spec's restricted subset cannot express.`,
      );
  }
}

function arrayField(def: Def, peeled: Peeled, fail: (reason: string) => never): object {
  const element = peel(def['element'], fail);
  const elementType = defOf(element.base).type;
  const options = stringOptions(element.base, fail);
  if (options === undefined) {
    return fail(
      elementType === 'object'
        ? 'is an array of objects; elicitation schemas are flat.'
        : `is an array of ${elementType}s; only lists of options (z.array(z.enum([...]))) can be sent, as a multi-select.`,
    );
  }
  const titles = peeled.optionTitles ?? element.optionTitles;
  const { type: _type, ...select } = multiSelectField(withTitles(options, titles, fail)) as {
    type: 'array';
    items: object;
  };
  return { ...arrayKeywords(checkDefs(def), fail), ...select };
}
