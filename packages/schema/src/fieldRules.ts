import type { PrimitiveFieldSchema } from '@parley/core';

import { STRING_FORMATS, isStringFormat, type StringFormat } from './formats.ts';
import type { Constraint, NodeShape, SchemaNode } from './schemaNode.ts';
import { multiSelectField, singleSelectField, withTitles } from './shorthands.ts';
import { describeValue, isPlainObject } from './values.ts';

/**
 * The vocabulary's rules, for every schema library at once: one `SchemaNode` (whatever library
 * it came from) becomes one field of the restricted elicitation schema, or a refusal that says
 * why. The messages name no library's API, so a team gets the same words from zod, valibot or
 * ArkType; where a way out differs per library, each spelling is given.
 *
 * Checks the wire cannot carry but the library enforces when it validates the answer
 * (refinements, transforms) never reach this file: the readers leave them out. What is refused
 * is what would make the form a client shows promise less than the server accepts (a pattern,
 * an exclusive bound on a non-integer, `multipleOf`), or what no form can ask for.
 */

type Fail = (reason: string) => never;

/** The field a node becomes, and whether the answer must include it. */
export interface Field {
  schema: PrimitiveFieldSchema;
  required: boolean;
}

const REFINE =
  'enforce it on the server with a refinement (zod .refine(), valibot v.check(), ArkType .narrow())';
const PATTERN = `the spec's subset has no pattern keyword, so a client could not enforce it; drop it, or ${REFINE}`;

const REFUSALS: Partial<Record<NodeShape['kind'], string>> = {
  object: 'is a nested object; elicitation schemas are flat. Ask for its fields at the top level.',
  record: 'is a record; elicitation schemas have a fixed set of fields.',
  nullable:
    'is nullable; answers are never null. Make the field optional instead, so it may be left out.',
  union:
    "is a union that is not a set of string options; the spec's subset has no composition beyond enums.",
  tuple: 'is a tuple; only lists of options (multi-select) can be sent.',
  date:
    "is a Date, which JSON cannot carry; ask for a string with format 'date' ('YYYY-MM-DD') or " +
    "'date-time' instead (zod z.iso.date(), valibot v.isoDate()).",
  bigint: 'is a bigint, which JSON cannot carry; ask for an integer number instead.',
  undefined: 'is undefined, which no answer can be.',
  null: 'is null, which no answer can be; leave the field out instead.',
};

/**
 * The node without the `undefined` members of its union (`string | undefined`): leaving a field
 * out is what a form does anyway, and whether it may be left out is `optional`'s to say.
 */
export function withoutUndefined(node: SchemaNode): SchemaNode {
  const { shape } = node;
  if (shape.kind !== 'union') return node;
  const members = shape.members.filter((member) => member.shape.kind !== 'undefined');
  if (members.length === shape.members.length || members.length === 0) return node;
  const [only] = members;
  return {
    ...node,
    shape: members.length === 1 && only !== undefined ? only.shape : { kind: 'union', members },
  };
}

/** Whether a union lets `null` through, which makes it a nullable, whatever else it holds. */
function hasNull(shape: NodeShape): boolean {
  return shape.kind === 'union' && shape.members.some((member) => member.shape.kind === 'null');
}

/** The values of a set of options, or of a union of such sets; `undefined` for anything else. */
function optionValues(node: SchemaNode): unknown[] | undefined {
  const { shape } = node;
  if (shape.kind === 'options') return shape.values;
  if (shape.kind !== 'union') return undefined;
  const parts = shape.members.map(optionValues);
  return parts.every((part) => part !== undefined) ? parts.flat() : undefined;
}

function stringOptions(node: SchemaNode, fail: Fail): string[] | undefined {
  if (hasNull(node.shape)) return undefined;
  const values = optionValues(node);
  if (values === undefined) return undefined;
  const bad = values.find((value) => typeof value !== 'string');
  if (bad !== undefined) {
    fail(
      `has the option ${describeValue(bad)}; options are strings` +
        (typeof bad === 'boolean' ? ' (ask for a boolean for yes/no).' : '.'),
    );
  }
  return [...new Set(values as string[])];
}

function optionTitlesOf(node: SchemaNode, fail: Fail): Record<string, unknown> | undefined {
  const titles = node.optionTitles;
  if (titles === undefined) return undefined;
  if (!isPlainObject(titles)) fail('has optionTitles that are not a { value: title } object.');
  return titles;
}

/** The wire field for a node, or a `TypeError` (via `fail`) saying why there is none. */
export function fieldOf(original: SchemaNode, fail: Fail): Field {
  const node = withoutUndefined(original);
  const head = {
    ...(node.title === undefined ? {} : { title: node.title }),
    ...(node.description === undefined ? {} : { description: node.description }),
  };
  const tail = node.default === undefined ? {} : { default: node.default.value };
  // Keys in the order people read them: type, labels, constraints, default.
  const field = (type: string, rest: object): Field => ({
    schema: { type, ...head, ...rest, ...tail } as PrimitiveFieldSchema,
    required: !node.optional,
  });

  const titles = optionTitlesOf(node, fail);
  const options = stringOptions(node, fail);
  if (options !== undefined) {
    const { type: _type, ...rest } = singleSelectField(withTitles(options, titles, fail));
    return field('string', rest);
  }
  const { shape } = node;
  if (titles !== undefined && shape.kind !== 'array') {
    fail('has optionTitles but no options; put them on an enum or a list of literals.');
  }
  switch (shape.kind) {
    case 'string':
      return field('string', stringKeywords(shape.constraints, fail));
    case 'number': {
      const { type, ...bounds } = numberKeywords(shape.integer, shape.constraints, fail);
      return field(type, bounds);
    }
    case 'boolean':
      return field('boolean', {});
    case 'array':
      return field('array', arrayField(shape.items, shape.constraints, titles, fail));
    case 'union':
      return fail((hasNull(shape) ? REFUSALS.nullable : REFUSALS.union) as string);
    case 'other':
      return fail(`is ${shape.what}, which the spec's restricted subset cannot express.`);
    default:
      return fail(REFUSALS[shape.kind] ?? "cannot be expressed in the spec's restricted subset.");
  }
}

const ITEM_NOUNS: Partial<Record<NodeShape['kind'], string>> = {
  string: 'strings',
  number: 'numbers',
  boolean: 'booleans',
  array: 'lists',
  union: 'unions',
  nullable: 'nullable values',
  date: 'Dates',
  bigint: 'bigints',
};

function arrayField(
  items: SchemaNode,
  constraints: readonly Constraint[],
  titles: Record<string, unknown> | undefined,
  fail: Fail,
): object {
  const options = stringOptions(items, fail);
  if (options === undefined) {
    return fail(
      items.shape.kind === 'object'
        ? 'is an array of objects; elicitation schemas are flat.'
        : `is an array of ${ITEM_NOUNS[items.shape.kind] ?? 'values that are not options'}; only ` +
            'lists of options (an array of an enum) can be sent, as a multi-select.',
    );
  }
  const { type: _type, ...select } = multiSelectField(
    withTitles(options, titles ?? optionTitlesOf(items, fail), fail),
  ) as { type: 'array'; items: object };
  return { ...arrayKeywords(constraints, fail), ...select };
}

function unsupported(constraint: Constraint): string {
  switch (constraint.kind) {
    case 'unsupported':
      return `has ${constraint.what}, which the spec's restricted subset cannot express.`;
    case 'pattern':
      return `has a pattern (a regular expression): ${PATTERN}.`;
    case 'multipleOf':
      return "has a multipleOf (a step), which the spec's restricted subset cannot express.";
    default:
      return `has a ${constraint.kind} constraint, which this kind of field cannot carry.`;
  }
}

interface StringKeywords {
  minLength?: number;
  maxLength?: number;
  format?: StringFormat;
}

function stringKeywords(constraints: readonly Constraint[], fail: Fail): StringKeywords {
  const out: StringKeywords = {};
  for (const constraint of constraints) {
    switch (constraint.kind) {
      case 'minLength':
        out.minLength = Math.max(out.minLength ?? 0, constraint.value);
        break;
      case 'maxLength':
        out.maxLength = Math.min(out.maxLength ?? Infinity, constraint.value);
        break;
      case 'format': {
        const { format } = constraint;
        if (!isStringFormat(format)) {
          return fail(
            `has the string format '${format}', which cannot be sent (the spec allows ` +
              `${STRING_FORMATS.join(', ')}): ${PATTERN}.`,
          );
        }
        if (out.format !== undefined && out.format !== format) {
          fail(`has two formats ('${out.format}' and '${format}'); a field has at most one.`);
        }
        out.format = format;
        break;
      }
      default:
        fail(unsupported(constraint));
    }
  }
  return out;
}

interface NumberKeywords {
  type: 'number' | 'integer';
  minimum?: number;
  maximum?: number;
}

/**
 * Number keywords. The spec has only inclusive `minimum`/`maximum`: for integers an exclusive
 * bound converts exactly (`> 0` is `minimum: 1`), for other numbers it cannot, and is refused.
 */
function numberKeywords(
  integer: boolean,
  constraints: readonly Constraint[],
  fail: Fail,
): NumberKeywords {
  const out: NumberKeywords = { type: integer ? 'integer' : 'number' };
  for (const constraint of constraints) {
    if (constraint.kind !== 'minimum' && constraint.kind !== 'maximum') {
      fail(unsupported(constraint));
      continue;
    }
    const lower = constraint.kind === 'minimum';
    const { value, exclusive } = constraint;
    if (exclusive && !integer) fail(exclusiveReason(lower, value));
    // An integer's bounds round inwards, so an exclusive one converts exactly.
    const bound = !integer
      ? value
      : lower
        ? exclusive
          ? Math.floor(value) + 1
          : Math.ceil(value)
        : exclusive
          ? Math.ceil(value) - 1
          : Math.floor(value);
    if (lower) out.minimum = Math.max(out.minimum ?? -Infinity, bound);
    else out.maximum = Math.min(out.maximum ?? Infinity, bound);
  }
  return out;
}

function exclusiveReason(lower: boolean, value: number): string {
  const [sign, keyword, inclusive] = lower ? ['>', 'minimum', '>='] : ['<', 'maximum', '<='];
  return (
    `has an exclusive bound (${sign} ${value}); the spec has only the inclusive ${keyword}, ` +
    `which cannot express it for non-integers. Use an inclusive bound (${inclusive}) with the ` +
    'value you mean, or make the field an integer.'
  );
}

interface ArrayKeywords {
  minItems?: number;
  maxItems?: number;
}

function arrayKeywords(constraints: readonly Constraint[], fail: Fail): ArrayKeywords {
  const out: ArrayKeywords = {};
  for (const constraint of constraints) {
    if (constraint.kind === 'minLength') {
      out.minItems = Math.max(out.minItems ?? 0, constraint.value);
    } else if (constraint.kind === 'maxLength') {
      out.maxItems = Math.min(out.maxItems ?? Infinity, constraint.value);
    } else fail(unsupported(constraint));
  }
  return out;
}

/** The object inside a node, and whether something around it makes the whole object optional. */
export function objectOf(
  original: SchemaNode,
): { object: Extract<NodeShape, { kind: 'object' }>; wrapped: boolean } | undefined {
  const node = withoutUndefined(original);
  const { shape } = node;
  if (shape.kind === 'object') {
    return { object: shape, wrapped: node.optional || node.default !== undefined };
  }
  const inner =
    shape.kind === 'nullable'
      ? shape.inner
      : hasNull(shape) && shape.kind === 'union'
        ? shape.members.find((member) => member.shape.kind !== 'null')
        : undefined;
  if (inner?.shape.kind !== 'object') return undefined;
  return { object: inner.shape, wrapped: true };
}

/** Refusals about the object response type as a whole. */
export const OBJECT_REFUSALS: { readonly wrapped: string; readonly typedExtraKeys: string } = {
  wrapped:
    'an object response type cannot be optional, nullable or defaulted as a whole; make its ' +
    'fields optional instead (declining already covers "no answer").',
  typedExtraKeys:
    'the object has a catchall (a schema for keys beyond its fields: .catchall(), a rest ' +
    'schema, additionalProperties); elicitation schemas have a fixed set of fields.',
};
