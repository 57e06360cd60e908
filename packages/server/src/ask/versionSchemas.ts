import {
  UnsupportedCapabilityError,
  isRecord,
  type BooleanFieldSchema,
  type ElicitFormParams,
  type ElicitRequest,
  type ElicitUrlParams,
  type ElicitationSchema,
  type PrimitiveFieldSchema,
} from '@parley/core';

/**
 * Elicitations as the client's protocol version defines them. Parley's schemas are written in
 * the vocabulary of 2025-11-25 and 2026-07-28 (identical for elicitation); a client that
 * negotiated an older version gets what its version can express, adapted where it can be, or a
 * clear refusal before the wire where nothing close enough exists:
 *
 * | version                 | elicitation                                                      |
 * | ----------------------- | ---------------------------------------------------------------- |
 * | 2025-11-25, 2026-07-28  | as written: form and URL modes, `oneOf` titles, multi-select, every `default` |
 * | 2025-06-18              | form only, no `mode`; titled options as `enum` + `enumNames`; `default` on booleans only; a pushed form's multi-select as one yes/no field per option, read back into the list |
 * | 2025-03-26 and earlier  | none in the spec; a client that declares the capability anyway is taken at its word and asked as on 2025-06-18 (one that declares nothing never gets here) |
 */

const FIRST_WITH_MODES = '2025-11-25';

type Params = ElicitFormParams | ElicitUrlParams;

/** A multi-select field asked as one yes/no field per option, and read back into its list. */
interface AdaptedMultiSelect {
  name: string;
  /** The option values, each with the yes/no field that asks for it. */
  options: { value: string; field: string }[];
}

function refusal(
  feature: 'elicitation' | 'URL elicitation',
  message: string,
): UnsupportedCapabilityError {
  return new UnsupportedCapabilityError(
    {
      feature,
      requiredCapabilities:
        feature === 'elicitation' ? { elicitation: {} } : { elicitation: { url: {} } },
    },
    { message },
  );
}

/** A 2025-06-18 field: titled options as `enumNames`, defaults only on booleans. */
function fieldFor2025_06_18(field: PrimitiveFieldSchema): PrimitiveFieldSchema {
  const { default: fallback, ...rest } = field as PrimitiveFieldSchema & { default?: unknown };
  const kept = (
    field.type === 'boolean' && fallback !== undefined ? { ...rest, default: fallback } : rest
  ) as PrimitiveFieldSchema & { oneOf?: { const: string; title: string }[] };
  if (kept.oneOf === undefined) return kept;
  const { oneOf, ...withoutOneOf } = kept;
  return {
    ...withoutOneOf,
    type: 'string',
    enum: oneOf.map((option) => option.const),
    enumNames: oneOf.map((option) => option.title),
  } as PrimitiveFieldSchema;
}

/** A multi-select's options, with their titles (the value where it has none). */
function optionsOf(
  field: PrimitiveFieldSchema & { type: 'array' },
): { value: string; title: string }[] {
  return 'anyOf' in field.items
    ? field.items.anyOf.map((option) => ({ value: option.const, title: option.title }))
    : field.items.enum.map((value) => ({ value, title: value }));
}

/**
 * The schema in 2025-06-18's vocabulary. A multi-select field is refused, or, where the answer
 * can be read back (`adapted` given), asked as one yes/no field per option (`tags.bug`, titled
 * "Tags: Bug"), ticked where the field's default has the option.
 */
function schemaFor2025_06_18(
  schema: ElicitationSchema,
  version: string,
  adapted?: AdaptedMultiSelect[],
): ElicitationSchema {
  const properties: Record<string, PrimitiveFieldSchema> = {};
  let required = schema.required;
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.type !== 'array') {
      properties[name] = fieldFor2025_06_18(field);
      continue;
    }
    const clash = optionsOf(field).find(({ value }) => `${name}.${value}` in schema.properties);
    if (adapted === undefined || clash !== undefined) {
      throw refusal(
        'elicitation',
        `The client negotiated MCP ${version}, whose elicitation schemas have no multi-select fields (they arrived in ${FIRST_WITH_MODES}); field '${name}' is one. Ask for a single choice, or several yes/no fields.`,
      );
    }
    const entry: AdaptedMultiSelect = { name, options: [] };
    for (const { value, title } of optionsOf(field)) {
      const yesNo: BooleanFieldSchema = {
        type: 'boolean',
        title: `${field.title ?? name}: ${title}`,
        ...(field.description !== undefined ? { description: field.description } : {}),
        ...(field.default !== undefined ? { default: field.default.includes(value) } : {}),
      };
      properties[`${name}.${value}`] = yesNo;
      entry.options.push({ value, field: `${name}.${value}` });
    }
    adapted.push(entry);
    // Unticked boxes are an answer too; how many must be ticked is checked on the list.
    required = required?.filter((key) => key !== name);
  }
  const { required: _asWritten, ...rest } = schema;
  return {
    ...rest,
    properties,
    ...(required !== undefined && required.length > 0 ? { required } : {}),
  } as ElicitationSchema;
}

/**
 * The elicitation parameters to send a client on `version`.
 *
 * @throws {UnsupportedCapabilityError} when `version` cannot carry this elicitation at all (no
 *   URL mode or multi-select before 2025-11-25: see {@link formFor} for a form whose answer can
 *   be read back).
 */
export function elicitParamsFor(params: Params, version: string): Params {
  if (version >= FIRST_WITH_MODES) return params;
  if (params.mode === 'url') {
    throw refusal(
      'URL elicitation',
      `The client negotiated MCP ${version}, which has no URL-mode elicitation (it arrived in ${FIRST_WITH_MODES}).`,
    );
  }
  const { mode: _mode, ...form } = params;
  return { ...form, requestedSchema: schemaFor2025_06_18(params.requestedSchema, version) };
}

/** A form as a client on some version can draw it, and its answer as the form was written. */
export interface VersionedForm {
  params: Params;
  /** The client's answer, read back into the fields of the form as written. */
  restore(answer: unknown): unknown;
}

const AS_IS = (answer: unknown): unknown => answer;

/**
 * A form to push to a client on `version`, as {@link elicitParamsFor} makes it, except that a
 * multi-select field the version cannot express is asked as one yes/no field per option, and the
 * answer is read back into the list: the handler gets what it asked for, checked against the form
 * as it wrote it.
 */
export function formFor(params: ElicitFormParams, version: string): VersionedForm {
  if (version >= FIRST_WITH_MODES) return { params, restore: AS_IS };
  const adapted: AdaptedMultiSelect[] = [];
  const { mode: _mode, ...form } = params;
  const requestedSchema = schemaFor2025_06_18(params.requestedSchema, version, adapted);
  return {
    params: { ...form, requestedSchema },
    restore: adapted.length === 0 ? AS_IS : (answer) => restoreLists(answer, adapted),
  };
}

/** An accepted answer's yes/no fields, back into the lists they stand for. */
function restoreLists(answer: unknown, adapted: readonly AdaptedMultiSelect[]): unknown {
  if (!isRecord(answer) || answer.action !== 'accept' || !isRecord(answer.content)) return answer;
  const content: Record<string, unknown> = { ...answer.content };
  for (const { name, options } of adapted) {
    content[name] = options
      .filter(({ field }) => content[field] === true)
      .map(({ value }) => value);
    for (const { field } of options) delete content[field];
  }
  return { ...answer, content };
}

/** An elicitation request as a client on `version` can read it (see {@link elicitParamsFor}). */
export function elicitRequestFor(request: ElicitRequest, version: string): ElicitRequest {
  const params = elicitParamsFor(request.params, version);
  return params === request.params ? request : { method: request.method, params };
}
