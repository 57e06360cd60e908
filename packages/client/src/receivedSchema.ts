import { isRecord, type ElicitationSchema } from '@parley/core';
import { describeFields } from '@parley/schema';

/**
 * The one reading of a `requestedSchema` a server sent, whichever era brought it. Real servers
 * send schemas that are near the spec but not on it (FastMCP's multi-select has `items.enum`
 * without `type: 'string'`; others leave out `type` where `enum` or `oneOf` says it, send bounds
 * as numeric strings, or options without titles). Where there is exactly one way to read such a
 * schema, it is read that way and each defect is reported, so a server's author can fix it;
 * where there is not, the reading fails naming the field, and the question is not answered.
 *
 * The result is a schema on the spec, so what a handler sees (`params.requestedSchema`,
 * `responseType`) and the answer the server gets are the same in both eras.
 */

/** What the reading made of a received schema: the schema on the spec, and what it corrected. */
export interface SchemaReading {
  schema: ElicitationSchema;
  /** Each correction, phrased to follow "server X sent …". */
  defects: string[];
}

/** A schema (or one of its fields) that cannot be read one way only. */
export class UnreadableField extends Error {
  constructor(
    readonly field: string | undefined,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const FIELD_TYPES: ReadonlySet<unknown> = new Set([
  'string',
  'number',
  'integer',
  'boolean',
  'array',
]);

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : JSON.stringify(value);
}

/** A number written as a string: only a plain decimal numeral counts, nothing else is guessed. */
function numeral(value: string): number | undefined {
  if (!/^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/.test(value)) return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** One field being read: its keywords (a copy) and the corrections made so far. */
class FieldReading {
  readonly field: Record<string, unknown>;
  readonly defects: string[] = [];

  constructor(
    readonly name: string,
    raw: Record<string, unknown>,
  ) {
    this.field = { ...raw };
  }

  defect(what: string, reading: string): void {
    this.defects.push(`field "${this.name}" ${what}; read it as ${reading}`);
  }

  fail(reason: string): never {
    throw new UnreadableField(this.name, reason);
  }

  /** A keyword that must be a number: a numeric string is read as one, anything else fails. */
  number(record: Record<string, unknown>, key: string, whole: boolean, where = key): void {
    const value = record[key];
    if (value === undefined || typeof value === 'number') return;
    const number = typeof value === 'string' ? numeral(value) : undefined;
    if (number === undefined || (whole && !Number.isInteger(number))) {
      this.fail(
        `has ${where} ${describe(value)}, which is not ${whole ? 'a whole number' : 'a number'}`,
      );
    }
    record[key] = number;
    this.defect(`with ${where} as the string ${JSON.stringify(value)}`, `the number ${number}`);
  }
}

/** `type` as a list of one type and `"null"` (an optional field, as some generators write it). */
function readTypeList(reading: FieldReading): void {
  const { field } = reading;
  if (!Array.isArray(field.type)) return;
  const types = field.type.filter((type) => type !== 'null');
  const [only] = types;
  if (types.length !== 1 || !FIELD_TYPES.has(only)) {
    reading.fail(`has type ${JSON.stringify(field.type)}, which is not one field type`);
  }
  reading.defect(`with type ${JSON.stringify(field.type)}`, JSON.stringify(only));
  field.type = only;
}

/** Options given as `{ const }` entries: each needs a string `const`; a missing title is the value. */
function readOptions(reading: FieldReading, list: unknown, where: string): unknown[] {
  if (!Array.isArray(list) || list.length === 0) {
    return reading.fail(`has a ${where} that is not a non-empty list of { const, title }`);
  }
  let untitled = false;
  const options = list.map((entry: unknown) => {
    if (!isRecord(entry) || typeof entry.const !== 'string') {
      return reading.fail(`has a ${where} entry without a string const`);
    }
    if (typeof entry.title === 'string') return { const: entry.const, title: entry.title };
    untitled = true;
    return { const: entry.const, title: entry.const };
  });
  if (untitled) reading.defect(`with ${where} options without a title`, 'their values');
  return options;
}

function isOptionList(value: unknown): boolean {
  return (
    Array.isArray(value) && value.length > 0 && value.every((e) => isRecord(e) && 'const' in e)
  );
}

/**
 * `anyOf` of a schema and `{ type: 'null' }` (how pydantic writes an optional field): the
 * schema, merged into the field.
 */
function readNullableAnyOf(reading: FieldReading): void {
  const { field } = reading;
  const anyOf = field.anyOf;
  if (!Array.isArray(anyOf) || isOptionList(anyOf)) return;
  const others = anyOf.filter((member) => !(isRecord(member) && member.type === 'null'));
  const [only] = others;
  if (others.length !== 1 || others.length === anyOf.length || !isRecord(only)) {
    reading.fail('has an anyOf that is neither a list of options nor one type or null');
  }
  delete field.anyOf;
  Object.assign(field, { ...only, ...field });
  reading.defect('as anyOf with null', `the one type it names (${describe(only.type)})`);
}

/** A field without `type`, where its other keywords say which it is. */
function inferType(reading: FieldReading): void {
  const { field } = reading;
  if (field.type !== undefined) return;
  if (field.enum !== undefined || field.oneOf !== undefined || isOptionList(field.anyOf)) {
    field.type = 'string';
    reading.defect('without type', 'a choice of strings');
  } else if (field.items !== undefined) {
    field.type = 'array';
    reading.defect('without type', 'a multi-select (type "array")');
  } else {
    reading.fail('has no type, and no enum, oneOf, anyOf or items to tell it');
  }
}

function readStringField(reading: FieldReading): void {
  const { field } = reading;
  if (field.oneOf === undefined && isOptionList(field.anyOf)) {
    field.oneOf = field.anyOf;
    delete field.anyOf;
    reading.defect('with its options under anyOf', 'oneOf (a single choice)');
  }
  if (field.oneOf !== undefined) field.oneOf = readOptions(reading, field.oneOf, 'oneOf');
  reading.number(field, 'minLength', true);
  reading.number(field, 'maxLength', true);
}

function readNumberField(reading: FieldReading): void {
  const { field } = reading;
  const whole = field.type === 'integer';
  reading.number(field, 'minimum', whole);
  reading.number(field, 'maximum', whole);
  reading.number(field, 'default', whole);
}

function readBooleanField(reading: FieldReading): void {
  const { field } = reading;
  if (field.default === 'true' || field.default === 'false') {
    reading.defect(`with default as the string "${field.default}"`, `${field.default}`);
    field.default = field.default === 'true';
  }
}

function readArrayField(reading: FieldReading): void {
  const { field } = reading;
  if (!isRecord(field.items)) {
    return reading.fail('is an array without items; a multi-select lists its options in items');
  }
  const items = { ...field.items };
  field.items = items;
  if (items.anyOf === undefined && isOptionList(items.oneOf)) {
    items.anyOf = items.oneOf;
    delete items.oneOf;
    reading.defect('with items.oneOf', 'items.anyOf (a titled multi-select)');
  }
  if (items.anyOf !== undefined) {
    items.anyOf = readOptions(reading, items.anyOf, 'items.anyOf');
  } else if (items.enum !== undefined && items.type === undefined) {
    items.type = 'string';
    reading.defect('without items.type', 'strings');
  }
  reading.number(field, 'minItems', true);
  reading.number(field, 'maxItems', true);
}

const READ_BY_TYPE: Record<string, (reading: FieldReading) => void> = {
  string: readStringField,
  number: readNumberField,
  integer: readNumberField,
  boolean: readBooleanField,
  array: readArrayField,
};

/** The reason the spec-level reader gives, without its own prefix (`describeFields: field 'x' `). */
function reasonOf(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const prefix = `describeFields: field '${name}' `;
  return (message.startsWith(prefix) ? message.slice(prefix.length) : message).replace(/\.$/, '');
}

function readField(name: string, raw: unknown): { schema: unknown; defects: string[] } {
  if (!isRecord(raw)) throw new UnreadableField(name, `is ${describe(raw)}, not a field schema`);
  const reading = new FieldReading(name, raw);
  readTypeList(reading);
  readNullableAnyOf(reading);
  inferType(reading);
  READ_BY_TYPE[String(reading.field.type)]?.(reading);
  // What is left is the spec's to judge: a nested object, options that are not strings…
  try {
    describeFields({ type: 'object', properties: { [name]: reading.field } } as never);
  } catch (error) {
    throw new UnreadableField(name, reasonOf(error, name));
  }
  return { schema: reading.field, defects: reading.defects };
}

function readRequired(value: unknown, names: string[], defects: string[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    defects.push(
      `required as the string ${JSON.stringify(value)}; read it as [${JSON.stringify(value)}]`,
    );
    value = [value];
  }
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    throw new UnreadableField(
      undefined,
      `has required ${describe(value)}, not a list of field names`,
    );
  }
  const known = (value as string[]).filter((name) => names.includes(name));
  for (const name of value as string[]) {
    if (!names.includes(name)) {
      defects.push(`required naming "${name}", which is not a field; ignored that name`);
    }
  }
  return [...new Set(known)];
}

/**
 * Read a received `requestedSchema`.
 *
 * @throws {UnreadableField} naming the field (or `undefined`: the schema as a whole) and why.
 */
export function readRequestedSchema(raw: unknown): SchemaReading {
  if (!isRecord(raw)) {
    throw new UnreadableField(undefined, `is ${describe(raw)}, not a schema object`);
  }
  const defects: string[] = [];
  if (raw.type === undefined) {
    defects.push('a requestedSchema without type "object"; read it as an object');
  } else if (raw.type !== 'object') {
    throw new UnreadableField(undefined, `has type ${describe(raw.type)} at the top, not "object"`);
  }
  let properties: Record<string, unknown> = {};
  if (raw.properties === undefined) {
    defects.push('a requestedSchema without properties; read it as a form with no fields');
  } else if (isRecord(raw.properties)) {
    properties = raw.properties;
  } else {
    throw new UnreadableField(
      undefined,
      `has properties that are ${describe(raw.properties)}, not an object of fields`,
    );
  }
  const fields: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(properties)) {
    const read = readField(name, field);
    fields[name] = read.schema;
    defects.push(...read.defects);
  }
  const required = readRequired(raw.required, Object.keys(fields), defects);
  const schema = {
    ...raw,
    type: 'object',
    properties: fields,
    ...(required === undefined ? {} : { required }),
  } as ElicitationSchema;
  return { schema, defects };
}
