import { loadSdk } from './sdk/load.ts';
import { issuesOf, objectSchemaOf, type ParameterSchema } from './definitions.ts';

/**
 * A tool's parameters: a schema from any Standard JSON Schema library (zod, valibot, ArkType,
 * …; see `objectSchemaOf`, which prompts use too), or a JSON Schema object as it should appear
 * in `tools/list`, kept exactly as written (for 2020-12 features a library does not produce, or
 * annotations such as `x-mcp-header`) and validated with the SDK's JSON Schema validator.
 */

/** A JSON Schema describing an object, listed as written. */
export interface JsonSchemaObject {
  type: 'object';
  [keyword: string]: unknown;
}

/** What a tool's `inputSchema` may be. */
export type ToolInputSchema = ParameterSchema | JsonSchemaObject;

export type ValidatedArgs = { ok: true; value: unknown } | { ok: false; issues: string[] };

/** A tool's or prompt's parameters, ready to list and to validate. */
export interface ToolInput {
  jsonSchema: Record<string, unknown>;
  validate(args: unknown): Promise<ValidatedArgs>;
}

/** A schema object of some library: zod's `_zod`, or Standard Schema's `~standard`. */
function isLibrarySchema(value: unknown): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    ('_zod' in value || '~standard' in value)
  );
}

function isJsonSchemaObject(schema: ToolInputSchema): schema is JsonSchemaObject {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    !isLibrarySchema(schema) &&
    (schema as { type?: unknown }).type === 'object' &&
    !Object.values(schema).some(isLibrarySchema)
  );
}

export function toolInputOf(
  api: string,
  schema: ToolInputSchema | undefined,
): ToolInput | undefined {
  if (schema === undefined) return undefined;
  if (isJsonSchemaObject(schema)) {
    // The SDK's validator, loaded (and compiled) with the first call that needs it.
    let validator: Promise<{ '~standard': { validate(value: unknown): unknown } }> | undefined;
    return {
      jsonSchema: schema,
      validate: async (args) => {
        validator ??= loadSdk().then((sdk) => sdk.fromJsonSchema(schema as never) as never);
        const result = (await (await validator)['~standard'].validate(args)) as {
          value?: unknown;
          issues?: readonly { message: string; path?: readonly unknown[] }[];
        };
        return result.issues === undefined
          ? { ok: true, value: result.value }
          : { ok: false, issues: issuesOf(result.issues) };
      },
    };
  }
  return objectSchemaOf(api, schema);
}
