import { SHAPE_MARK, UNSUPPORTED_MARK } from './jsonSchemaNode.ts';
import { describable, vendorOf, type StandardSchemaLike } from './standardSchema.ts';

/**
 * Asking a schema library for its JSON Schema, the one place that knows how each library is
 * asked. Every library is asked through Standard JSON Schema (`~standard.jsonSchema`) with
 * library options where the defaults would hide something:
 *
 * - for a response type, what the library cannot convert is *marked* (see `jsonSchemaNode.ts`)
 *   rather than thrown (valibot throws on any unknown action, `v.check()` included) or widened to
 *   `{}` (ArkType's Standard converter), so the rules can name the field and say why;
 * - for tool and prompt arguments (`standardJsonSchema`), it is converted leniently: what the
 *   library can describe is listed, the rest is left open, and the library validates the call.
 *
 * ArkType is asked through its own `toJsonSchema()` for the input side, because its Standard
 * converter describes the input type, in which a defaulted property has no `default`.
 */

const TARGET = 'draft-2020-12';

type Json = Record<string, unknown>;

// --- valibot (through @valibot/to-json-schema) ---

interface ValibotNode {
  readonly kind?: string;
  readonly type?: string;
}

// Validations that are the author's own logic: valibot runs them on the answer; nothing to send.
const VALIBOT_REFINEMENTS = new Set(['check', 'partial_check', 'raw_check', 'check_items']);

const VALIBOT_MARKS = {
  overrideSchema(context: { valibotSchema: ValibotNode; errors?: readonly string[] }) {
    if (context.errors === undefined) return undefined;
    const type = context.valibotSchema.type ?? 'unknown';
    if (type === 'date' || type === 'bigint' || type === 'undefined') {
      return { [SHAPE_MARK]: { kind: type } };
    }
    return { [SHAPE_MARK]: { kind: 'other', what: `a valibot '${type}' schema` } };
  },
  overrideAction(context: {
    valibotAction: ValibotNode;
    jsonSchema: Json;
    errors?: readonly string[];
  }) {
    if (context.errors === undefined) return undefined;
    const { kind, type = 'unknown' } = context.valibotAction;
    // Transformations (trim, transform, brand, …) and refinements hold on the server only.
    if (kind !== 'validation' || VALIBOT_REFINEMENTS.has(type)) return context.jsonSchema;
    const marked = context.jsonSchema[UNSUPPORTED_MARK];
    return {
      ...context.jsonSchema,
      [UNSUPPORTED_MARK]: [...(Array.isArray(marked) ? marked : []), `a '${type}' check`],
    };
  },
};

// --- ArkType ---

interface ArkTypeLike {
  toJsonSchema(options: Json): Json;
}

function isArkType(schema: unknown): schema is ArkTypeLike {
  return typeof (schema as { toJsonSchema?: unknown }).toJsonSchema === 'function';
}

type ArkContext = { base: Json } & Record<string, unknown>;

const mark = (shape: Json) => () => ({ [SHAPE_MARK]: shape });
const keepBase = (context: ArkContext) => context.base;

/** ArkType's fallback codes: what each becomes when a response type is read. */
const ARKTYPE_MARKS = {
  date: mark({ kind: 'date' }),
  domain: (context: ArkContext) =>
    context['domain'] === 'bigint'
      ? { [SHAPE_MARK]: { kind: 'bigint' } }
      : { [SHAPE_MARK]: { kind: 'other', what: `a ${String(context['domain'])}` } },
  proto: (context: ArkContext) => ({
    [SHAPE_MARK]: {
      kind: 'other',
      what: `an instance of ${(context['proto'] as { name?: string } | undefined)?.name ?? 'a class'}`,
    },
  }),
  unit: (context: ArkContext) => ({
    [SHAPE_MARK]:
      context['unit'] === undefined
        ? { kind: 'undefined' }
        : { kind: 'other', what: `the value ${String(context['unit'])}` },
  }),
  arrayObject: mark({ kind: 'other', what: 'an array with extra properties' }),
  arrayPostfix: mark({ kind: 'tuple' }),
  symbolKey: mark({ kind: 'other', what: 'an object with symbol keys' }),
  // The input side of a morph is what the client fills in; ArkType runs the morph on the answer.
  morph: keepBase,
  // Narrowing predicates are the author's own checks, run by ArkType on the answer.
  predicate: keepBase,
  // A second pattern beside the first: no wire keyword can carry either.
  patternIntersection: (context: ArkContext) => ({
    ...context.base,
    [UNSUPPORTED_MARK]: ['a second pattern'],
  }),
  // A default JSON cannot carry is not sent; ArkType still fills it in.
  defaultValue: keepBase,
};

const ARKTYPE_LENIENT = Object.fromEntries(
  Object.keys(ARKTYPE_MARKS).map((code) => [code, keepBase]),
);

/**
 * ArkType spells `string.email` (and its other formats) as a `format` *and* the regex it checks
 * the format with. The format is what the wire carries; the regex is ArkType's own check, still
 * run on the answer, not a pattern the author asked for.
 */
function withoutFormatPatterns(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(withoutFormatPatterns);
  if (typeof json !== 'object' || json === null) return json;
  const entries = Object.entries(json).map(([key, value]) => [key, withoutFormatPatterns(value)]);
  const out = Object.fromEntries(entries) as Json;
  if (typeof out['format'] === 'string' && typeof out['pattern'] === 'string')
    delete out['pattern'];
  return out;
}

function withoutDialect(json: Json): Json {
  const { $schema: _dialect, ...rest } = json;
  return rest;
}

function convert(api: string, vendor: string, run: () => Json): Json {
  try {
    const json = run();
    if (typeof json !== 'object' || json === null) {
      throw new TypeError(`the converter returned ${json === null ? 'null' : typeof json}`);
    }
    return json;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TypeError(
      `${api}: the ${vendor} schema could not be converted to JSON Schema: ${reason}`,
      { cause: error },
    );
  }
}

/**
 * The JSON Schema of a response type's input side, with what the library cannot convert
 * marked for the rules. Throws a `TypeError` starting with `api`.
 */
export function elicitationJsonSchema(schema: StandardSchemaLike, api: string): Json {
  const standard = describable(schema, api);
  const vendor = vendorOf(schema);
  return convert(api, vendor, () => {
    if (vendor === 'arktype' && isArkType(schema)) {
      return withoutFormatPatterns(
        schema.toJsonSchema({ target: TARGET, fallback: ARKTYPE_MARKS }),
      ) as Json;
    }
    return standard['~standard'].jsonSchema.input({
      target: TARGET,
      ...(vendor === 'valibot' ? { libraryOptions: VALIBOT_MARKS } : {}),
    });
  });
}

const LENIENT_OPTIONS: Record<string, Record<string, unknown>> = {
  valibot: { errorMode: 'ignore' },
  zod: { unrepresentable: 'any' },
};

/**
 * The JSON Schema a Standard JSON Schema library (zod 4, valibot through
 * `toStandardJsonSchema()`, ArkType, …) gives for `schema`, as MCP lists a tool's or prompt's
 * parameters: draft 2020-12, without the `$schema` key. Converted leniently: what the library
 * cannot describe (a refinement, a transform, a Date) is left open rather than refused, since
 * the library itself validates what arrives.
 *
 * Throws a `TypeError` starting with `api` (default `standardJsonSchema`) when the schema cannot
 * describe itself (a bare valibot schema) or its library fails to convert it.
 */
export function standardJsonSchema(
  schema: StandardSchemaLike,
  io: 'input' | 'output' = 'input',
  api = 'standardJsonSchema',
): Record<string, unknown> {
  const standard = describable(schema, api);
  const vendor = vendorOf(schema);
  return withoutDialect(
    convert(api, vendor, () => {
      if (vendor === 'arktype' && io === 'input' && isArkType(schema)) {
        return schema.toJsonSchema({ target: TARGET, fallback: ARKTYPE_LENIENT });
      }
      const libraryOptions = LENIENT_OPTIONS[vendor];
      return standard['~standard'].jsonSchema[io]({
        target: TARGET,
        ...(libraryOptions === undefined ? {} : { libraryOptions }),
      });
    }),
  );
}
