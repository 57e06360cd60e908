import {
  checkOptionKeys,
  optionKeys,
  type ElicitationSchema,
  type PrimitiveFieldSchema,
} from '@parley/core';

import { applyDefaults, checkContent, readContent, requireFields, setField } from './content.ts';
import type { FieldDescriptor } from './fieldDescriptor.ts';
import { OBJECT_REFUSALS, fieldOf, objectOf } from './fieldRules.ts';
import { jsonSchemaNode } from './jsonSchemaNode.ts';
import { elicitationJsonSchema } from './libraryJsonSchema.ts';
import type { ElicitableShape, ResponseTypeOptionsFor } from './elicitable.ts';
import type {
  CompiledResponseType,
  InferResponse,
  ResponseType,
  ResponseTypeOptions,
} from './responseType.ts';
import type { SchemaNode } from './schemaNode.ts';
import { readSchema } from './schemaReader.ts';
import {
  multiSelectField,
  objectOptions,
  shorthandOptions,
  singleSelectField,
} from './shorthands.ts';
import { validateAnswer } from './standardAnswers.ts';
import { isStandardSchema, type StandardSchemaLike } from './standardSchema.ts';
import { describeValue, isPlainObject } from './values.ts';
import { isZod3Schema, isZodObject, isZodSchema, zodNode } from './zodNode.ts';

const API = 'compileResponseType';

/** The field a scalar, enum or list response type is wrapped in. */
export const WRAPPER_FIELD = 'value';

function fail(reason: string): never {
  throw new TypeError(`${API}: ${reason}`);
}

function failField(name: string): (reason: string) => never {
  return (reason) => fail(`field '${name}' ${reason}`);
}

/**
 * What a response type becomes before its answers can be parsed. `validator` is the schema
 * library's own, when the response type came from one: it has the last word on every answer.
 */
type Plan =
  | { kind: 'approve' }
  | {
      kind: 'wrapped';
      field: PrimitiveFieldSchema;
      required?: false;
      validator?: StandardSchemaLike;
    }
  | { kind: 'object'; schema: ElicitationSchema; validator?: StandardSchemaLike };

function plan(responseType: unknown): Plan {
  if (responseType === null) return { kind: 'approve' };
  if (responseType === String) return { kind: 'wrapped', field: { type: 'string' } };
  if (responseType === Number) return { kind: 'wrapped', field: { type: 'number' } };
  if (responseType === Boolean) return { kind: 'wrapped', field: { type: 'boolean' } };
  if (isZodSchema(responseType)) {
    const node = zodNode(responseType, (name, reason) => failField(name)(reason));
    return nodePlan(node, responseType as unknown as StandardSchemaLike);
  }
  if (isZod3Schema(responseType)) {
    fail('this is a zod 3 schema; Parley reads zod 4 schemas (zod >= 4, or `zod/v4` in zod 3.25).');
  }
  if (isStandardSchema(responseType)) return standardPlan(responseType);
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
      'a { value: { title } } map, a string enum, a schema (zod, valibot, ArkType or any ' +
      'Standard JSON Schema library) or a wire ElicitationSchema.',
  );
}

/** Whether the library's validator lets the value be left out entirely. */
function acceptsNothing(schema: StandardSchemaLike): boolean {
  // A zod object refuses a missing value by its type alone. Asking its validator builds and
  // formats an issue: on a cold start, the costliest step in compiling the commonest response type.
  if (isZodObject(schema)) return false;
  let result: unknown;
  try {
    result = schema['~standard'].validate(undefined);
  } catch {
    return false;
  }
  if (typeof (result as { then?: unknown } | null)?.then === 'function') {
    // Async validation is refused when an answer is parsed; here it only must not leak.
    Promise.resolve(result).catch(() => undefined);
    return false;
  }
  return (result as { issues?: unknown } | null)?.issues == null;
}

/** Any other Standard JSON Schema library: its JSON Schema is read into the same node. */
function standardPlan(schema: StandardSchemaLike): Plan {
  return nodePlan(jsonSchemaNode(elicitationJsonSchema(schema, API)), schema);
}

/** A library's response type, whichever library: the vocabulary's rules on its node. */
function nodePlan(read: SchemaNode, validator: StandardSchemaLike): Plan {
  // Whether the value as a whole may be missing is the validator's to say: JSON Schema cannot
  // say it at all, and a union with `undefined` says it without a wrapper.
  const node = read.optional || !acceptsNothing(validator) ? read : { ...read, optional: true };
  const found = objectOf(node);
  if (found === undefined) {
    const { schema: field, required } = fieldOf(node, failField(WRAPPER_FIELD));
    // An optional or defaulted value: the one field may be left out.
    return required
      ? { kind: 'wrapped', field, validator }
      : { kind: 'wrapped', field, required: false, validator };
  }
  if (found.wrapped) fail(OBJECT_REFUSALS.wrapped);
  if (found.object.extraKeys === 'typed') fail(OBJECT_REFUSALS.typedExtraKeys);
  const properties: Record<string, PrimitiveFieldSchema> = {};
  const required: string[] = [];
  for (const { name, node: fieldNode } of found.object.fields) {
    const field = fieldOf(fieldNode, failField(name));
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
  return { kind: 'object', schema: wire, validator };
}

const LABEL_OPTIONS = optionKeys<ResponseTypeOptions>()(['responseTitle', 'responseDescription']);

function labels(options: ResponseTypeOptions | undefined): Partial<PrimitiveFieldSchema> {
  if (options === undefined) return {};
  checkOptionKeys(API, 'options', options, LABEL_OPTIONS);
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
  const { validator } = found;
  if (found.kind === 'wrapped') {
    if (validator === undefined) {
      return (content) => checkContent(content, fields, 'drop')[WRAPPER_FIELD];
    }
    return (content) => {
      const record = requireFields(
        applyDefaults(readContent(content, fields, 'drop'), fields),
        fields,
      );
      return validateAnswer(validator, record.get(WRAPPER_FIELD), true);
    };
  }
  if (validator === undefined) return (content) => checkContent(content, fields, 'drop');
  // A field called `toString` or `constructor` that the answer left out must read as missing to
  // the library, not as the inherited method: such schemas get an input without a prototype.
  // Every other schema gets a plain object (one without a prototype is slower to build and to
  // read, on every answer).
  const bare = fields.some((field) => field.name in Object.prototype);
  return (content) => {
    const record = requireFields(
      applyDefaults(readContent(content, fields, 'drop'), fields),
      fields,
    );
    const input: object = bare ? Object.create(null) : {};
    for (const [name, value] of record) setField(input, name, value);
    return validateAnswer(validator, input, false);
  };
}

/**
 * Turns what an author passes as `responseType` into the `requestedSchema` to send and a
 * `parse` for the answer. Scalars, option lists and schemas that are not objects are wrapped in
 * one `value` field (labelled by `responseTitle` / `responseDescription`) and unwrapped again by
 * `parse`. A schema from a library (zod 4, valibot through `toStandardJsonSchema()`, ArkType, any
 * Standard JSON Schema library) is compiled by the same rules whichever library it is, and its
 * answers are validated by the library itself.
 *
 * Everything the spec's restricted subset cannot express is refused here, with a `TypeError`
 * naming the field, before anything reaches the wire. Does no caching: call it per request.
 */
export function compileResponseType<const R extends ResponseType>(
  responseType: R & ElicitableShape<R>,
  options?: ResponseTypeOptionsFor<R>,
): CompiledResponseType<InferResponse<R>> {
  const found = plan(responseType);
  const label = labels(options as ResponseTypeOptions | undefined);
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
