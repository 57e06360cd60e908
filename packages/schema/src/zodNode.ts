import type { ZodSchemaLike } from './responseType.ts';
import type { Constraint, NodeShape, SchemaNode } from './schemaNode.ts';
import { describeValue, isPlainObject, ownValue } from './values.ts';

/**
 * A zod 4 schema read into a `SchemaNode`, by walking `_zod.def` (never `instanceof`, and no
 * import of zod: the author's copy, classic or `zod/mini`, is the only one). zod is read
 * structurally rather than through its JSON Schema because the JSON Schema loses what the rules
 * need: it spells `z.email()` as a format *and* a pattern, and a second pattern as `allOf`.
 *
 * Wrappers are peeled from the outside in: `.optional()`, `.default()` and `.prefault()` make the
 * value optional, `.readonly()`, `.catch()` and the input side of a pipe (`.transform()`) change
 * nothing on the wire. Checks zod enforces but the wire cannot carry (`.refine()`, `.trim()`-style
 * overwrites) are left out: answers are validated by the zod schema itself.
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

/** Whether `value` is a zod 4 object schema itself (not wrapped: optional, default, catch, …). */
export function isZodObject(value: unknown): boolean {
  return isZodSchema(value) && defOf(value).type === 'object';
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

function defOf(schema: unknown): Def {
  return (schema as ZodSchemaLike)._zod.def as Def;
}

/** zod's global registry lives on `globalThis` so that every copy of zod shares it. */
interface RegistryLike {
  get(schema: unknown): unknown;
}

/** Metadata from `.meta()` / `.describe()`, or from the global registry for `zod/mini`. */
function metaOf(schema: unknown): Record<string, unknown> | undefined {
  const own = (schema as { meta?: unknown }).meta;
  const registry = (globalThis as { __zod_globalRegistry?: RegistryLike }).__zod_globalRegistry;
  const meta: unknown = typeof own === 'function' ? own.call(schema) : registry?.get(schema);
  return isPlainObject(meta) ? meta : undefined;
}

/** Peels wrappers off, collecting optionality, the default and metadata (outermost wins). */
function peel(schema: unknown): { base: unknown; node: Omit<SchemaNode, 'shape'> } {
  const node: Omit<SchemaNode, 'shape'> = { optional: false };
  let optionalSet = false;
  for (let current = schema; ;) {
    const meta = metaOf(current);
    const title = meta && ownValue(meta, 'title');
    const description = meta && ownValue(meta, 'description');
    const optionTitles = meta && ownValue(meta, 'optionTitles');
    if (node.title === undefined && typeof title === 'string') node.title = title;
    if (node.description === undefined && typeof description === 'string') {
      node.description = description;
    }
    if (node.optionTitles === undefined && optionTitles !== undefined) {
      node.optionTitles = optionTitles;
    }
    const def = defOf(current);
    switch (def.type) {
      case 'optional':
      case 'default':
      case 'prefault':
      case 'nonoptional':
        if (!optionalSet) {
          node.optional = def.type !== 'nonoptional';
          optionalSet = true;
        }
        if ((def.type === 'default' || def.type === 'prefault') && node.default === undefined) {
          // Read once: zod evaluates a function default on every read.
          node.default = { value: def['defaultValue'] };
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
        return { base: current, node };
    }
  }
}

/** A zod schema as a node; `failField` refuses a shape entry that is not a zod schema. */
export function zodNode(
  schema: unknown,
  failField: (name: string, reason: string) => never,
): SchemaNode {
  const { base, node } = peel(schema);
  return { ...node, shape: shapeOf(defOf(base), failField) };
}

function shapeOf(def: Def, failField: (name: string, reason: string) => never): NodeShape {
  switch (def.type) {
    case 'string':
      return { kind: 'string', constraints: stringConstraints(checkDefs(def)) };
    case 'number':
      return numberShape(checkDefs(def));
    case 'boolean':
      return { kind: 'boolean' };
    case 'enum':
      return { kind: 'options', values: Object.values(def['entries'] as object) };
    case 'literal':
      return { kind: 'options', values: [...(def['values'] as unknown[])] };
    case 'union':
      return {
        kind: 'union',
        members: (def['options'] as unknown[]).map((option) => zodNode(option, failField)),
      };
    case 'nullable':
      return { kind: 'nullable', inner: zodNode(def['innerType'], failField) };
    case 'array':
      return {
        kind: 'array',
        items: zodNode(def['element'], failField),
        constraints: lengthConstraints(checkDefs(def)),
      };
    case 'object':
      return objectShape(def, failField);
    case 'record':
      return { kind: 'record' };
    case 'tuple':
      return { kind: 'tuple' };
    case 'date':
      return { kind: 'date' };
    case 'bigint':
      return { kind: 'bigint' };
    case 'null':
      return { kind: 'null' };
    case 'undefined':
      return { kind: 'undefined' };
    default:
      return { kind: 'other', what: `a z.${def.type}()` };
  }
}

function objectShape(def: Def, failField: (name: string, reason: string) => never): NodeShape {
  const catchall = def['catchall'];
  const catchallType = catchall === undefined ? 'never' : defOf(catchall).type;
  const fields = Object.entries(def['shape'] as Record<string, unknown>).map(([name, value]) => {
    if (!isZodSchema(value)) failField(name, `is ${describeValue(value)}, not a zod schema.`);
    return { name, node: zodNode(value, failField) };
  });
  return {
    kind: 'object',
    fields,
    extraKeys: catchallType === 'never' ? 'none' : catchallType === 'unknown' ? 'ignored' : 'typed',
  };
}

interface CheckDef {
  check: string;
  [key: string]: unknown;
}

/** The checks of a zod def, the def itself first when it is one (`z.email()`, `z.int()`). */
function checkDefs(def: Record<string, unknown>): CheckDef[] {
  const defs: CheckDef[] = [];
  if (typeof def['check'] === 'string') defs.push(def as CheckDef);
  for (const check of Array.isArray(def['checks']) ? def['checks'] : []) {
    const checkDef: unknown = (check as { _zod?: { def?: unknown } } | null)?._zod?.def;
    if (isPlainObject(checkDef) && typeof checkDef['check'] === 'string') {
      defs.push(checkDef as CheckDef);
    }
  }
  return defs;
}

// Enforced by zod when it parses the answer; nothing to send.
const SERVER_ONLY = new Set(['custom', 'overwrite']);

// zod's names for the formats the spec has.
const FORMATS: Record<string, string> = {
  email: 'email',
  url: 'uri',
  date: 'date',
  datetime: 'date-time',
};

function unsupported(check: string): Constraint {
  return { kind: 'unsupported', what: `a '${check}' check` };
}

function lengthConstraint(def: CheckDef): Constraint[] | undefined {
  switch (def.check) {
    case 'min_length':
      return [{ kind: 'minLength', value: def['minimum'] as number }];
    case 'max_length':
      return [{ kind: 'maxLength', value: def['maximum'] as number }];
    case 'length_equals':
      return [
        { kind: 'minLength', value: def['length'] as number },
        { kind: 'maxLength', value: def['length'] as number },
      ];
    default:
      return undefined;
  }
}

function lengthConstraints(defs: readonly CheckDef[]): Constraint[] {
  return defs.flatMap((def) => {
    if (SERVER_ONLY.has(def.check)) return [];
    return lengthConstraint(def) ?? [unsupported(def.check)];
  });
}

function stringConstraints(defs: readonly CheckDef[]): Constraint[] {
  return defs.flatMap((def): Constraint[] => {
    if (SERVER_ONLY.has(def.check)) return [];
    const length = lengthConstraint(def);
    if (length !== undefined) return length;
    if (def.check !== 'string_format') return [unsupported(def.check)];
    const format = String(def['format']);
    if (format === 'regex') return [{ kind: 'pattern' }];
    return [{ kind: 'format', format: FORMATS[format] ?? format }];
  });
}

// Bounds implied by a zod number format; safeint and float64 are left implicit.
const FORMAT_BOUNDS: Record<string, [number, number] | undefined> = {
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

function numberShape(defs: readonly CheckDef[]): NodeShape {
  const integer = defs.some(
    (def) => def.check === 'number_format' && String(def['format']).includes('int'),
  );
  const constraints = defs.flatMap((def): Constraint[] => {
    switch (def.check) {
      case 'number_format': {
        const bounds = FORMAT_BOUNDS[def['format'] as string];
        return bounds === undefined
          ? []
          : [
              { kind: 'minimum', value: bounds[0], exclusive: false },
              { kind: 'maximum', value: bounds[1], exclusive: false },
            ];
      }
      case 'greater_than':
      case 'less_than':
        return [
          {
            kind: def.check === 'greater_than' ? 'minimum' : 'maximum',
            value: def['value'] as number,
            exclusive: def['inclusive'] !== true,
          },
        ];
      case 'multiple_of':
        return [{ kind: 'multipleOf', value: def['value'] as number }];
      default:
        return SERVER_ONLY.has(def.check) ? [] : [unsupported(def.check)];
    }
  });
  return { kind: 'number', integer, constraints };
}
