import {
  UnsupportedCapabilityError,
  type ElicitFormParams,
  type ElicitRequest,
  type ElicitUrlParams,
  type ElicitationSchema,
  type PrimitiveFieldSchema,
} from '@parley/core';

/**
 * Elicitations as the client's protocol version defines them. Parley's schemas are written in
 * the vocabulary of 2025-11-25 and 2026-07-28 (identical for elicitation); a client that
 * negotiated an older version gets what its version can express, or a clear refusal before the
 * wire when it can express nothing close enough:
 *
 * | version                 | elicitation                                                      |
 * | ----------------------- | ---------------------------------------------------------------- |
 * | 2025-11-25, 2026-07-28  | as written: form and URL modes, `oneOf` titles, multi-select, every `default` |
 * | 2025-06-18              | form only, no `mode`; titled options as `enum` + `enumNames`; `default` on booleans only; no multi-select |
 * | 2025-03-26 and earlier  | none                                                             |
 */

const FIRST_WITH_ELICITATION = '2025-06-18';
const FIRST_WITH_MODES = '2025-11-25';

type Params = ElicitFormParams | ElicitUrlParams;

/** True when `version` has elicitation at all. */
export function versionHasElicitation(version: string): boolean {
  return version >= FIRST_WITH_ELICITATION;
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
function fieldFor2025_06_18(
  name: string,
  field: PrimitiveFieldSchema,
  version: string,
): PrimitiveFieldSchema {
  if (field.type === 'array') {
    throw refusal(
      'elicitation',
      `The client negotiated MCP ${version}, whose elicitation schemas have no multi-select fields (they arrived in ${FIRST_WITH_MODES}); field '${name}' is one. Ask for a single choice, or several yes/no fields.`,
    );
  }
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

function schemaFor2025_06_18(schema: ElicitationSchema, version: string): ElicitationSchema {
  const properties: Record<string, PrimitiveFieldSchema> = {};
  for (const [name, field] of Object.entries(schema.properties)) {
    properties[name] = fieldFor2025_06_18(name, field, version);
  }
  return { ...schema, properties };
}

/**
 * The elicitation parameters to send a client on `version`.
 *
 * @throws {UnsupportedCapabilityError} when `version` cannot carry this elicitation at all
 *   (no elicitation before 2025-06-18, no URL mode or multi-select before 2025-11-25).
 */
export function elicitParamsFor(params: Params, version: string): Params {
  if (version >= FIRST_WITH_MODES) return params;
  if (!versionHasElicitation(version)) {
    throw refusal(
      'elicitation',
      `The client negotiated MCP ${version}, which has no elicitation (it arrived in ${FIRST_WITH_ELICITATION}); this request cannot ask the user.`,
    );
  }
  if (params.mode === 'url') {
    throw refusal(
      'URL elicitation',
      `The client negotiated MCP ${version}, which has no URL-mode elicitation (it arrived in ${FIRST_WITH_MODES}).`,
    );
  }
  const { mode: _mode, ...form } = params;
  return { ...form, requestedSchema: schemaFor2025_06_18(params.requestedSchema, version) };
}

/** An elicitation request as a client on `version` can read it (see {@link elicitParamsFor}). */
export function elicitRequestFor(request: ElicitRequest, version: string): ElicitRequest {
  const params = elicitParamsFor(request.params, version);
  return params === request.params ? request : { method: request.method, params };
}
