import {
  isRecord,
  type BooleanFieldSchema,
  type ElicitationSchema,
  type NumberFieldSchema,
  type PrimitiveFieldSchema,
  type StringFieldSchema,
} from '@parley/core';

import type { FieldKind } from './hostProfiles.ts';

/**
 * Fields a client cannot draw, asked as fields it can, and the answer read back into the form as
 * the handler wrote it, so the handler gets what it asked for, checked against its own schema:
 *
 * - a multi-select as one yes/no field per option (`tags.bug`, titled "Tags: Bug"), ticked where
 *   the field's default has the option, read back into the list;
 * - a number or integer as a text field that says what to enter (its bounds too), read back into
 *   a number when the text is one as written; blank text for an optional number is no answer
 *   (hosts send an empty text field as `""`); other text is left as it came, and the handler's
 *   own check asks again, saying what was wrong.
 */

/** A form whose fields some client cannot draw, as it can, and the way back. */
export interface AdaptedFields {
  schema: ElicitationSchema;
  /** The fields asked otherwise than written, by name (none when the form is as written). */
  adapted: readonly string[];
  /** An answer to `schema`, as an answer to the form as written. */
  restore(answer: unknown): unknown;
}

/** Why a field cannot be adapted (a name clash): the caller's refusal says what to do. */
export class UnadaptableField extends Error {
  constructor(readonly field: string) {
    super(`field '${field}' cannot be adapted`);
  }
}

type Restorer = (content: Record<string, unknown>) => void;

const NUMBER_PATTERN = '^-?(0|[1-9][0-9]*)(\\.[0-9]+)?$';
const INTEGER_PATTERN = '^-?(0|[1-9][0-9]*)$';

/** A multi-select's options, with their titles (the value where it has none). */
function optionsOf(
  field: PrimitiveFieldSchema & { type: 'array' },
): { value: string; title: string }[] {
  return 'anyOf' in field.items
    ? field.items.anyOf.map((option) => ({ value: option.const, title: option.title }))
    : field.items.enum.map((value) => ({ value, title: value }));
}

function boundsOf(field: NumberFieldSchema): string {
  const { minimum, maximum } = field;
  if (minimum !== undefined && maximum !== undefined) return ` from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return ` of at least ${minimum}`;
  if (maximum !== undefined) return ` of at most ${maximum}`;
  return '';
}

/** A number field as a text field, and the text read back into a number. */
function numberAsText(
  name: string,
  field: NumberFieldSchema,
  required: boolean,
): [StringFieldSchema, Restorer] {
  const kind = field.type === 'integer' ? 'a whole number' : 'a number';
  const hint = `${kind}${boundsOf(field)}`;
  const text: StringFieldSchema = {
    type: 'string',
    ...(field.title !== undefined ? { title: field.title } : {}),
    description:
      field.description === undefined ? `Enter ${hint}.` : `${field.description} (${hint})`,
    ...(field.default !== undefined ? { default: String(field.default) } : {}),
  };
  const shape = new RegExp(field.type === 'integer' ? INTEGER_PATTERN : NUMBER_PATTERN);
  const restore: Restorer = (content) => {
    const given = content[name];
    if (typeof given !== 'string') return;
    const trimmed = given.trim();
    // An optional number left blank was not given: a person can skip it as the form allows.
    if (trimmed === '' && !required) delete content[name];
    // Only text that is the number as written becomes it; anything else fails the handler's own
    // check, which says what was wrong.
    if (shape.test(trimmed)) content[name] = Number(trimmed);
  };
  return [text, restore];
}

/**
 * `schema` with the fields of `kinds` adapted.
 *
 * @throws {UnadaptableField} when a multi-select's yes/no fields would clash with a field the
 *   form already has.
 */
export function adaptFields(
  schema: ElicitationSchema,
  kinds: ReadonlySet<FieldKind>,
): AdaptedFields {
  const properties: Record<string, PrimitiveFieldSchema> = {};
  const restorers: Restorer[] = [];
  const adapted: string[] = [];
  let required = schema.required;
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.type === 'array' && kinds.has('multiSelect')) {
      const options = optionsOf(field);
      if (options.some(({ value }) => `${name}.${value}` in schema.properties)) {
        throw new UnadaptableField(name);
      }
      for (const { value, title } of options) {
        const yesNo: BooleanFieldSchema = {
          type: 'boolean',
          title: `${field.title ?? name}: ${title}`,
          ...(field.description !== undefined ? { description: field.description } : {}),
          ...(field.default !== undefined ? { default: field.default.includes(value) } : {}),
        };
        properties[`${name}.${value}`] = yesNo;
      }
      adapted.push(name);
      restorers.push((content) => {
        // An answer that already holds the list is left as it came; no box ticked is an
        // empty list (a client may leave unticked boxes out).
        const boxes = options.some(({ value }) => Object.hasOwn(content, `${name}.${value}`));
        if (!boxes && Array.isArray(content[name])) return;
        content[name] = options
          .filter(({ value }) => content[`${name}.${value}`] === true)
          .map(({ value }) => value);
        for (const { value } of options) delete content[`${name}.${value}`];
      });
      // Unticked boxes are an answer too; how many must be ticked is checked on the list.
      required = required?.filter((key) => key !== name);
    } else if ((field.type === 'number' || field.type === 'integer') && kinds.has(field.type)) {
      const [text, restore] = numberAsText(name, field, schema.required?.includes(name) === true);
      properties[name] = text;
      adapted.push(name);
      restorers.push(restore);
    } else {
      properties[name] = field;
    }
  }
  if (restorers.length === 0) return { schema, adapted, restore: (answer) => answer };
  const { required: _asWritten, ...rest } = schema;
  return {
    adapted,
    schema: {
      ...rest,
      properties,
      ...(required !== undefined && required.length > 0 ? { required } : {}),
    } as ElicitationSchema,
    restore(answer) {
      if (!isRecord(answer) || answer.action !== 'accept' || !isRecord(answer.content)) {
        return answer;
      }
      const content: Record<string, unknown> = { ...answer.content };
      for (const restore of restorers) restore(content);
      return { ...answer, content };
    },
  };
}
