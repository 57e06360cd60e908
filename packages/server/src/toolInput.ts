import { fromJsonSchema } from '@modelcontextprotocol/server';

import { jsonSchemaOf, objectSchemaOf, type ParameterSchema } from './definitions.ts';

/**
 * A tool's parameters: a zod object (or its shape), or a JSON Schema object as it should appear
 * in `tools/list`, kept exactly as written (for 2020-12 features zod does not produce, or
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

/** A tool's parameters, ready to list and to validate. */
export interface ToolInput {
  jsonSchema: Record<string, unknown>;
  validate(args: unknown): Promise<ValidatedArgs>;
}

function isJsonSchemaObject(schema: ToolInputSchema): schema is JsonSchemaObject {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    !('_zod' in schema) &&
    (schema as { type?: unknown }).type === 'object' &&
    !Object.values(schema).some(
      (value) => typeof value === 'object' && value !== null && '_zod' in value,
    )
  );
}

function issuesOf(
  issues: readonly { message: string; path?: readonly unknown[] | undefined }[],
): string[] {
  return issues.map((issue) => {
    const path = (issue.path ?? [])
      .map((segment) =>
        String(
          typeof segment === 'object' && segment !== null && 'key' in segment
            ? segment.key
            : segment,
        ),
      )
      .join('.');
    return `${path || '(root)'}: ${issue.message}`;
  });
}

export function toolInputOf(
  api: string,
  schema: ToolInputSchema | undefined,
): ToolInput | undefined {
  if (schema === undefined) return undefined;
  if (isJsonSchemaObject(schema)) {
    const validator = fromJsonSchema(schema as never);
    return {
      jsonSchema: schema,
      validate: async (args) => {
        const result = await validator['~standard'].validate(args);
        return result.issues === undefined
          ? { ok: true, value: result.value }
          : { ok: false, issues: issuesOf(result.issues) };
      },
    };
  }
  const zodObject = objectSchemaOf(api, schema);
  if (zodObject === undefined) return undefined;
  return {
    jsonSchema: jsonSchemaOf(zodObject, 'input'),
    validate: async (args) => {
      const parsed = await zodObject.safeParseAsync(args);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, issues: issuesOf(parsed.error.issues) };
    },
  };
}
