import type { ElicitationSchema, PrimitiveFieldSchema } from '@parley/core';

import { applyDefaults, checkContent, readContent } from './content.ts';
import type { FieldDescriptor } from './fieldDescriptor.ts';
import type {
  CompiledResponseType,
  InferResponse,
  ResponseType,
  ResponseTypeOptions,
  ZodSchemaLike,
} from './responseType.ts';
import { readSchema } from './schemaReader.ts';
import {
  multiSelectField,
  objectOptions,
  shorthandOptions,
  singleSelectField,
} from './shorthands.ts';
import { describeValue, isPlainObject } from './values.ts';
import { parseWithZod } from './zodAnswers.ts';
import { defOf, isZod3Schema, isZodSchema, zodField } from './zodIntrospection.ts';

const API = 'compileResponseType';

/** The field a scalar, enum or list response type is wrapped in. */
export const WRAPPER_FIELD = 'value';

function fail(reason: string): never {
  throw new TypeError(`${API}: ${reason}`);
}

function failField(name: string): (reason: string) => never {
  return (reason) => fail(`field '${name}' ${reason}`);
}

/** What a response type becomes before its answers can be parsed. */
type Plan =
  | { kind: 'approve' }
  | { kind: 'wrapped'; field: PrimitiveFieldSchema; required?: false; zod?: ZodSchemaLike }
  | { kind: 'object'; schema: ElicitationSchema; zod?: ZodSchemaLike };

function plan(responseType: unknown): Plan {
  if (responseType === null) return { kind: 'approve' };
  if (responseType === String) return { kind: 'wrapped', field: { type: 'string' } };
  if (responseType === Number) return { kind: 'wrapped', field: { type: 'number' } };
  if (responseType === Boolean) return { kind: 'wrapped', field: { type: 'boolean' } };
  if (isZodSchema(responseType)) return zodPlan(responseType);
  if (isZod3Schema(responseType)) {
    fail('this is a zod 3 schema; Parley reads zod 4 schemas (zod >= 4, or `zod/v4` in zod 3.25).');
  }
  if (Array.isArray(responseType)) {
    const [first] = responseType as unknown[];
    return responseType.length === 1 && (Array.isArray(first) || isPlainObject(first))
      ? { kind: 'wrapped', field: multiSelectField(shorthandOptions(first)) }
      : { kind: 'wrapped', field: singleSelectField(shorthandOptions(responseType)) };
  }
  if (isPlainObject(responseType)) {
    if (responseType['type'] === 'object' && 'properties' in responseType) {
      // A wire schema is sent as written, after the strict check; copied so later edits to
      // the author's object cannot change what was compiled.
      return {
        kind: 'object',
        schema: structuredClone(responseType) as unknown as ElicitationSchema,
      };
    }
    return { kind: 'wrapped', field: singleSelectField(objectOptions(responseType)) };
  }
  const name =
    typeof responseType === 'function'
      ? `the function ${responseType.name || '(anonymous)'}`
      : describeValue(responseType);
  return fail(
    `${name} is not a response type. Use String, Number, Boolean, null, a list of options, ` +
      'a { value: { title } } map, a string enum, a zod 4 schema or a wire ElicitationSchema.',
  );
}

const TRANSPARENT = ['readonly', 'catch', 'pipe'];
const OPTIONALITY = ['optional', 'nullable', 'default', 'prefault', 'nonoptional'];

/** The object schema inside read-only, catch and pipe wrappers, if the response is an object. */
function zodObject(schema: ZodSchemaLike): Record<string, unknown> | undefined {
  let def = defOf(schema);
  let optional = false;
  while (TRANSPARENT.includes(def.type) || OPTIONALITY.includes(def.type)) {
    optional ||= OPTIONALITY.includes(def.type);
    def = defOf(def.type === 'pipe' ? def['in'] : def['innerType']);
  }
  if (def.type !== 'object') return undefined;
  if (optional) {
    fail(
      'an object response type cannot be optional, nullable or defaulted as a whole; make its ' +
        'fields optional instead (declining already covers "no answer").',
    );
  }
  return def;
}

function zodPlan(schema: ZodSchemaLike): Plan {
  const object = zodObject(schema);
  if (object === undefined) {
    const { schema: field, required } = zodField(schema, failField(WRAPPER_FIELD));
    // `z.string().optional()` or `.default()`: the one field may be left out.
    return required
      ? { kind: 'wrapped', field, zod: schema }
      : { kind: 'wrapped', field, required: false, zod: schema };
  }
  const catchall = object['catchall'];
  if (catchall !== undefined && !['never', 'unknown'].includes(defOf(catchall).type)) {
    fail('the object has a .catchall(); elicitation schemas have a fixed set of fields.');
  }
  const properties: Record<string, PrimitiveFieldSchema> = {};
  const required: string[] = [];
  for (const [name, value] of Object.entries(object['shape'] as Record<string, unknown>)) {
    if (!isZodSchema(value)) failField(name)(`is ${describeValue(value)}, not a zod schema.`);
    const field = zodField(value, failField(name));
    Object.defineProperty(properties, name, {
      value: field.schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (field.required) required.push(name);
  }
  const wire: ElicitationSchema = { type: 'object', properties };
  if (required.length > 0) wire.required = required;
  return { kind: 'object', schema: wire, zod: schema };
}

function labels(options: ResponseTypeOptions | undefined): Partial<PrimitiveFieldSchema> {
  if (options === undefined) return {};
  if (!isPlainObject(options)) fail(`options must be an object, got ${describeValue(options)}.`);
  const out: { title?: string; description?: string } = {};
  for (const [key, label] of [
    ['responseTitle', 'title'],
    ['responseDescription', 'description'],
  ] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') fail(`${key} must be a string, got ${describeValue(value)}.`);
    out[label] = value;
  }
  return out;
}

function wrap(
  field: PrimitiveFieldSchema,
  label: Partial<PrimitiveFieldSchema>,
  required: boolean,
): ElicitationSchema {
  const { type, title, description, ...rest } = { ...field, ...label } as PrimitiveFieldSchema;
  const labelled = {
    type,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...rest,
  } as PrimitiveFieldSchema;
  const schema: ElicitationSchema = { type: 'object', properties: { [WRAPPER_FIELD]: labelled } };
  if (required) schema.required = [WRAPPER_FIELD];
  return schema;
}

function parser(found: Plan, fields: FieldDescriptor[]): (content: unknown) => unknown {
  if (found.kind === 'approve') return (content) => void checkContent(content, fields, 'drop');
  const { zod } = found;
  if (found.kind === 'wrapped') {
    if (zod === undefined) return (content) => checkContent(content, fields, 'drop')[WRAPPER_FIELD];
    return (content) => {
      const record = applyDefaults(readContent(content, fields, 'drop'), fields);
      const value = record.get(WRAPPER_FIELD);
      return parseWithZod(zod, value, true, () => value !== undefined);
    };
  }
  if (zod === undefined) return (content) => checkContent(content, fields, 'drop');
  return (content) => {
    const record = applyDefaults(readContent(content, fields, 'drop'), fields);
    // No prototype: a field called `toString` or `constructor` that the answer left out must
    // read as missing to zod, not as the inherited method.
    const input = Object.assign(Object.create(null) as object, Object.fromEntries(record));
    return parseWithZod(zod, input, false, (name) => record.has(name));
  };
}

/**
 * Turns what an author passes as `responseType` into the `requestedSchema` to send and a
 * `parse` for the answer. Scalars, option lists and zod non-objects are wrapped in one `value`
 * field (labelled by `responseTitle` / `responseDescription`) and unwrapped again by `parse`.
 *
 * Everything the spec's restricted subset cannot express is refused here, with a `TypeError`
 * naming the field, before anything reaches the wire. Does no caching: call it per request.
 */
export function compileResponseType<const R extends ResponseType>(
  responseType: R,
  options?: ResponseTypeOptions,
): CompiledResponseType<InferResponse<R>> {
  const found = plan(responseType);
  const label = labels(options);
  if (found.kind !== 'wrapped' && Object.keys(label).length > 0) {
    const why =
      found.kind === 'approve'
        ? 'an approve-only (null) response has no field to label'
        : 'this response type has its own fields, so set title/description on each field instead';
    fail(
      'responseTitle and responseDescription label the wrapper field of a scalar, enum or list ' +
        `response type; ${why}.`,
    );
  }
  const requestedSchema: ElicitationSchema =
    found.kind === 'approve'
      ? { type: 'object', properties: {} }
      : found.kind === 'wrapped'
        ? wrap(found.field, label, found.required !== false)
        : found.schema;
  // The schema about to be sent passes the same strict check as any author's wire schema.
  const fields = readSchema(requestedSchema, 'strict', API);
  const parse = parser(found, fields);
  return {
    requestedSchema,
    wrapped: found.kind === 'wrapped',
    parse: parse as (content: unknown) => InferResponse<R>,
  };
}
