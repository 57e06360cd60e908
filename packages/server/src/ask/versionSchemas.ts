import {
  UnsupportedCapabilityError,
  type ElicitFormParams,
  type ElicitRequest,
  type ElicitUrlParams,
  type ElicitationSchema,
  type PrimitiveFieldSchema,
} from '@parley/core';

import { APP_URI } from './askRoutes.ts';
import { adaptFields, UnadaptableField, type AdaptedFields } from './fieldAdaptation.ts';
import type { FieldKind } from './hostProfiles.ts';

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

/**
 * Where a form asked otherwise than written names the fields adapted (`_meta`), so a client can
 * say why the form looks as it does.
 */
export const ADAPTED_META = 'dev.parley/adapted';

type Params = ElicitFormParams | ElicitUrlParams;

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

/**
 * The schema in 2025-06-18's vocabulary; a multi-select field (none in that version) is refused:
 * {@link formFor} asks one as yes/no fields where the answer can be read back.
 */
function schemaFor2025_06_18(schema: ElicitationSchema, version: string): ElicitationSchema {
  const properties: Record<string, PrimitiveFieldSchema> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    if (field.type === 'array') {
      throw refusal(
        'elicitation',
        `The client negotiated MCP ${version}, whose elicitation schemas have no multi-select fields (they arrived in ${FIRST_WITH_MODES}); field '${name}' is one. Ask for a single choice, or several yes/no fields.`,
      );
    }
    properties[name] = fieldFor2025_06_18(field);
  }
  return { ...schema, properties } as ElicitationSchema;
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

/** How the client's host draws forms, beyond its protocol version (`ask/askRoutes.ts`). */
export interface FormDrawing {
  /** Fields the host cannot draw (its host profile). */
  cannotRender?: readonly FieldKind[] | undefined;
  /** The form names the App to draw it with (SEP-3118). */
  appElicitation?: boolean | undefined;
}

const AS_IS = (answer: unknown): unknown => answer;

/**
 * A form to push to a client on `version`, as {@link elicitParamsFor} makes it, except that the
 * fields the version or the host cannot draw are adapted (`fieldAdaptation.ts`) and the answer
 * read back: the handler gets what it asked for, checked against the form as it wrote it. Where
 * the host draws forms with the App (SEP-3118), the form names it, the schema kept for the
 * host's own form.
 */
export function formFor(
  params: ElicitFormParams,
  version: string,
  drawing: FormDrawing = {},
): VersionedForm {
  const kinds = new Set<FieldKind>(drawing.cannotRender);
  if (version < FIRST_WITH_MODES) kinds.add('multiSelect');
  let adapted: AdaptedFields = { schema: params.requestedSchema, adapted: [], restore: AS_IS };
  if (kinds.size > 0) {
    try {
      adapted = adaptFields(params.requestedSchema, kinds);
    } catch (error) {
      if (!(error instanceof UnadaptableField)) throw error;
      const why =
        version < FIRST_WITH_MODES
          ? `The client negotiated MCP ${version}, whose elicitation schemas have no multi-select fields (they arrived in ${FIRST_WITH_MODES})`
          : "The client's host cannot draw multi-select fields (its host profile)";
      throw refusal(
        'elicitation',
        `${why}; field '${error.field}' is one, and cannot be asked as yes/no fields: the form already has a field named like one of them. Ask for a single choice, or several yes/no fields.`,
      );
    }
  }
  const form: ElicitFormParams = { ...params, requestedSchema: adapted.schema };
  // What a client shows of the route: the App that may draw the form, the fields adapted.
  if (drawing.appElicitation === true || adapted.adapted.length > 0) {
    form._meta = {
      ...params._meta,
      ...(drawing.appElicitation === true ? { ui: { resourceUri: APP_URI } } : {}),
      ...(adapted.adapted.length > 0 ? { [ADAPTED_META]: adapted.adapted } : {}),
    };
  }
  return { params: elicitParamsFor(form, version), restore: adapted.restore };
}

/** An elicitation request as a client on `version` can read it (see {@link elicitParamsFor}). */
export function elicitRequestFor(request: ElicitRequest, version: string): ElicitRequest {
  const params = elicitParamsFor(request.params, version);
  return params === request.params ? request : { method: request.method, params };
}
