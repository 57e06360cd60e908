import type { Constraint, FieldNode, NodeShape, SchemaNode } from './schemaNode.ts';
import { isPlainObject, ownValue } from './values.ts';

/**
 * A JSON Schema (draft 2020-12, the input side) read into a `SchemaNode`: how valibot, ArkType and
 * any other Standard JSON Schema library reach the vocabulary's rules. The reader records what the
 * schema says and refuses nothing itself; keywords it does not model become `unsupported`
 * constraints, so a validation keyword is never silently dropped from the form.
 *
 * `libraryJsonSchema.ts` asks each library to mark what it could not convert with the two
 * `x-parley-*` keys below instead of throwing or widening it to `{}`, so the rules can name the
 * field (a Date, a bigint, a valibot action with no JSON Schema keyword).
 */

/** Set on a schema the library could not convert: the shape it is, for the rules to refuse. */
export const SHAPE_MARK = 'x-parley-shape';
/** Set on a schema whose checks the library could not convert: what each check is. */
export const UNSUPPORTED_MARK = 'x-parley-unsupported';

type Json = Record<string, unknown>;

// JSON Schema's own vocabulary: a keyword here that is not modelled is a constraint the form
// could not carry. Anything else (an author's metadata) is left alone.
const VALIDATION = new Set([
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'minProperties',
  'maxProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  '$dynamicRef',
]);

const SHAPE_KINDS = new Set<NodeShape['kind']>([
  'date',
  'bigint',
  'tuple',
  'record',
  'null',
  'undefined',
]);

class Reader {
  readonly #visiting = new Set<unknown>();
  constructor(readonly root: Json) {}

  node(schema: unknown, optional: boolean): SchemaNode {
    if (schema === true || schema === undefined) {
      return {
        optional,
        shape: { kind: 'other', what: 'any value (the schema accepts anything)' },
      };
    }
    if (!isPlainObject(schema)) {
      return { optional, shape: { kind: 'other', what: 'a value no answer can be' } };
    }
    const ref = ownValue(schema, '$ref');
    const node: SchemaNode = {
      optional,
      shape: typeof ref === 'string' ? { kind: 'other', what: 'a reference' } : this.#shape(schema),
    };
    const title = ownValue(schema, 'title');
    const description = ownValue(schema, 'description');
    if (typeof title === 'string') node.title = title;
    if (typeof description === 'string') node.description = description;
    if (Object.hasOwn(schema, 'default')) node.default = { value: schema['default'] };
    if (ownValue(schema, 'optionTitles') !== undefined) node.optionTitles = schema['optionTitles'];
    return typeof ref === 'string' ? this.#withReferenced(node, ref) : node;
  }

  /** `$ref` to a definition of the same document; labels beside the `$ref` win. */
  #withReferenced(node: SchemaNode, ref: string): SchemaNode {
    const target = this.#resolve(ref);
    if (target === undefined || this.#visiting.has(target)) {
      return {
        ...node,
        shape: { kind: 'other', what: `a recursive or unresolvable schema (${ref})` },
      };
    }
    this.#visiting.add(target);
    const referenced = this.node(target, node.optional);
    this.#visiting.delete(target);
    return {
      ...referenced,
      ...(node.title === undefined ? {} : { title: node.title }),
      ...(node.description === undefined ? {} : { description: node.description }),
      ...(node.default === undefined ? {} : { default: node.default }),
      ...(node.optionTitles === undefined ? {} : { optionTitles: node.optionTitles }),
    };
  }

  #resolve(ref: string): unknown {
    if (ref === '#') return this.root;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    if (match === null) return undefined;
    const defs = ownValue(this.root, match[1] as string);
    if (!isPlainObject(defs)) return undefined;
    return ownValue(
      defs,
      decodeURIComponent(match[2] as string)
        .replace(/~1/g, '/')
        .replace(/~0/g, '~'),
    );
  }

  #shape(schema: Json): NodeShape {
    const mark = ownValue(schema, SHAPE_MARK);
    if (isPlainObject(mark)) return markedShape(mark);
    if (Object.hasOwn(schema, 'const')) return { kind: 'options', values: [schema['const']] };
    const values = ownValue(schema, 'enum');
    if (Array.isArray(values)) return { kind: 'options', values: [...values] };
    const members = ownValue(schema, 'anyOf') ?? ownValue(schema, 'oneOf');
    if (Array.isArray(members)) {
      return { kind: 'union', members: members.map((member) => this.node(member, false)) };
    }
    const type = ownValue(schema, 'type');
    if (Array.isArray(type)) {
      return {
        kind: 'union',
        members: type.map((one) => this.node({ ...schema, type: one }, false)),
      };
    }
    const constraints = unmodelled(schema);
    switch (type) {
      case 'string':
        return { kind: 'string', constraints: [...stringConstraints(schema), ...constraints] };
      case 'number':
      case 'integer':
        return {
          kind: 'number',
          integer: type === 'integer',
          constraints: [...numberConstraints(schema), ...constraints],
        };
      case 'boolean':
        return { kind: 'boolean' };
      case 'null':
        return { kind: 'null' };
      case 'array':
        return this.#arrayShape(schema, constraints);
      case 'object':
        return this.#objectShape(schema);
      default:
        if (ownValue(schema, 'properties') !== undefined) return this.#objectShape(schema);
        return { kind: 'other', what: 'any value (its JSON Schema has no type)' };
    }
  }

  #arrayShape(schema: Json, constraints: Constraint[]): NodeShape {
    const items = ownValue(schema, 'items');
    if (ownValue(schema, 'prefixItems') !== undefined || Array.isArray(items)) {
      return { kind: 'tuple' };
    }
    const lengths: Constraint[] = [];
    const min = ownValue(schema, 'minItems');
    const max = ownValue(schema, 'maxItems');
    if (typeof min === 'number') lengths.push({ kind: 'minLength', value: min });
    if (typeof max === 'number') lengths.push({ kind: 'maxLength', value: max });
    return {
      kind: 'array',
      items: this.node(items, false),
      constraints: [...lengths, ...constraints],
    };
  }

  #objectShape(schema: Json): NodeShape {
    const properties = ownValue(schema, 'properties');
    const extra = ownValue(schema, 'additionalProperties');
    const keyed =
      ownValue(schema, 'propertyNames') !== undefined ||
      ownValue(schema, 'patternProperties') !== undefined;
    const typedExtra =
      keyed || (extra !== undefined && extra !== false && extra !== true && !isEmpty(extra));
    if (!isPlainObject(properties)) return typedExtra ? { kind: 'record' } : objectOf([], 'none');
    const required = ownValue(schema, 'required');
    const names = new Set(Array.isArray(required) ? required : []);
    const fields: FieldNode[] = Object.entries(properties).map(([name, field]) => ({
      name,
      node: this.node(field, !names.has(name)),
    }));
    return objectOf(
      fields,
      typedExtra ? 'typed' : extra === undefined || extra === false ? 'none' : 'ignored',
    );
  }
}

function objectOf(fields: FieldNode[], extraKeys: 'none' | 'ignored' | 'typed'): NodeShape {
  return { kind: 'object', fields, extraKeys };
}

function isEmpty(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

function markedShape(mark: Json): NodeShape {
  const kind = ownValue(mark, 'kind') as NodeShape['kind'];
  if (SHAPE_KINDS.has(kind)) return { kind } as NodeShape;
  const what = ownValue(mark, 'what');
  return {
    kind: 'other',
    what: typeof what === 'string' ? what : 'a value JSON Schema cannot describe',
  };
}

/** Validation keywords the reader does not model, and the checks the library marked. */
function unmodelled(schema: Json): Constraint[] {
  const out: Constraint[] = Object.keys(schema)
    .filter((key) => VALIDATION.has(key))
    .map((key) => ({ kind: 'unsupported', what: `the JSON Schema keyword '${key}'` }));
  const marked = ownValue(schema, UNSUPPORTED_MARK);
  for (const what of Array.isArray(marked) ? marked : []) {
    if (typeof what === 'string') out.push({ kind: 'unsupported', what });
  }
  return out;
}

function stringConstraints(schema: Json): Constraint[] {
  const out: Constraint[] = [];
  const min = ownValue(schema, 'minLength');
  const max = ownValue(schema, 'maxLength');
  const format = ownValue(schema, 'format');
  if (typeof min === 'number') out.push({ kind: 'minLength', value: min });
  if (typeof max === 'number') out.push({ kind: 'maxLength', value: max });
  if (typeof format === 'string') out.push({ kind: 'format', format });
  if (ownValue(schema, 'pattern') !== undefined) out.push({ kind: 'pattern' });
  return out;
}

function numberConstraints(schema: Json): Constraint[] {
  const out: Constraint[] = [];
  const bound = (key: string, kind: 'minimum' | 'maximum', exclusive: boolean): void => {
    const value = ownValue(schema, key);
    if (typeof value === 'number') out.push({ kind, value, exclusive });
  };
  // Draft 4 spelt an exclusive bound as a boolean beside minimum/maximum.
  bound('minimum', 'minimum', ownValue(schema, 'exclusiveMinimum') === true);
  bound('maximum', 'maximum', ownValue(schema, 'exclusiveMaximum') === true);
  bound('exclusiveMinimum', 'minimum', true);
  bound('exclusiveMaximum', 'maximum', true);
  const step = ownValue(schema, 'multipleOf');
  if (typeof step === 'number') out.push({ kind: 'multipleOf', value: step });
  return out;
}

/** The node of a whole JSON Schema document (its `$defs` resolve `$ref`s). */
export function jsonSchemaNode(schema: Json, optional = false): SchemaNode {
  return new Reader(schema).node(schema, optional);
}
