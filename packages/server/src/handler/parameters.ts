import type { StandardJsonSchemaLike, StandardOutput } from '@parley/schema';
import { standardJsonSchema } from '@parley/schema';
import * as z from 'zod';

import { loadSdk } from '../utils/loadSdk.ts';

/**
 * A tool's parameters: a schema from any Standard JSON Schema library (zod, valibot, ArkType,
 * …; see `objectSchemaOf`, which prompts use too), or a JSON Schema object as it should appear
 * in `tools/list`, kept exactly as written (for 2020-12 features a library does not produce, or
 * annotations such as `x-mcp-header`) and validated with the SDK's JSON Schema validator.
 */

/**
 * The parameters of a tool or prompt: a zod object or its shape (`{ city: z.string() }`), or an
 * object schema from any library that implements Standard Schema and Standard JSON Schema (the
 * MCP SDK's `StandardSchemaWithJSON`): an ArkType `type({...})`, a valibot
 * `toStandardJsonSchema(v.object({...}))`, ….
 */
export type ParameterSchema = z.ZodObject | Record<string, z.ZodType> | StandardJsonSchemaLike;

/** The handler's `args` type for a parameter schema: the library's output type. */
export type ArgsOf<TSchema> = TSchema extends { type: 'object'; _zod?: never; '~standard'?: never }
  ? Record<string, unknown>
  : TSchema extends z.ZodObject
    ? z.output<TSchema>
    : TSchema extends StandardJsonSchemaLike
      ? StandardOutput<TSchema>
      : TSchema extends Record<string, z.ZodType>
        ? z.output<z.ZodObject<TSchema>>
        : Record<string, never>;

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

/** A tool's output schema as listed: a JSON Schema object as written, or zod's conversion. */
export function outputJsonSchemaOf(schema: z.ZodType | JsonSchemaObject): Record<string, unknown> {
  return isJsonSchemaObject(schema) ? schema : jsonSchemaOf(schema as z.ZodType, 'output');
}

/** One entry of a prompt's `arguments` list. */
export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

function isZodType(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function isStandardSchema(value: unknown): value is StandardJsonSchemaLike {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    '~standard' in value
  );
}

/** Issues of a failed validation, as `path: message` lines for the `-32602` error. */
export function issuesOf(
  issues: readonly { message: string; path?: readonly unknown[] | undefined }[],
): string[] {
  return issues.map((issue) => {
    const path = Array.from(issue.path ?? [], (segment) =>
      String(
        typeof segment === 'object' && segment !== null && 'key' in segment ? segment.key : segment,
      ),
    ).join('.');
    return `${path || '(root)'}: ${issue.message}`;
  });
}

/**
 * The one argument validator of tools and prompts: the schema's own library validates
 * (`~standard.validate`, which zod, valibot and ArkType all implement), and its output is what
 * the handler gets.
 */
function standardInput(
  schema: StandardJsonSchemaLike | z.ZodType,
  jsonSchema: Record<string, unknown>,
): ToolInput {
  const validator = schema['~standard'] as {
    validate(value: unknown): unknown;
  };
  return {
    jsonSchema,
    validate: async (args): Promise<ValidatedArgs> => {
      const result = (await validator.validate(args)) as {
        value?: unknown;
        issues?: readonly { message: string; path?: readonly unknown[] }[];
      };
      return result.issues === undefined || result.issues === null
        ? { ok: true, value: result.value }
        : { ok: false, issues: issuesOf(result.issues) };
    },
  };
}

const PARAMETER_SCHEMAS =
  'a z.object(...) or its shape, or an object schema from a Standard JSON Schema library ' +
  '(an ArkType type({...}), a valibot object through toStandardJsonSchema(), …)';

/**
 * A parameter schema as the validator tools and prompts share, or `undefined` when the handler
 * takes none. Refuses, with a `TypeError` starting with `api`, what is not an object schema.
 */
export function objectSchemaOf(
  api: string,
  schema: ParameterSchema | undefined,
): ToolInput | undefined {
  if (schema === undefined) return undefined;
  if (isZodType(schema)) {
    if (schema._zod.def.type !== 'object') {
      throw new TypeError(`${api}: the parameter schema must be a z.object(...) or its shape.`);
    }
    return standardInput(schema, jsonSchemaOf(schema, 'input'));
  }
  if (isStandardSchema(schema)) {
    const jsonSchema = standardJsonSchema(schema, 'input', api);
    if (jsonSchema['type'] !== 'object') {
      throw new TypeError(
        `${api}: the parameter schema must describe an object; its JSON Schema has type ` +
          `${JSON.stringify(jsonSchema['type'])}.`,
      );
    }
    return standardInput(schema, jsonSchema);
  }
  if (typeof schema !== 'object' || schema === null || !Object.values(schema).every(isZodType)) {
    throw new TypeError(`${api}: the parameter schema must be ${PARAMETER_SCHEMAS}.`);
  }
  const object = z.object(schema);
  return standardInput(object, jsonSchemaOf(object, 'input'));
}

/**
 * JSON Schema for a schema, as MCP lists it (no `$schema` key): zod's own conversion for zod
 * (classic and mini), the library's Standard JSON Schema for any other.
 */
export function jsonSchemaOf(
  schema: z.ZodType | StandardJsonSchemaLike,
  io: 'input' | 'output',
): Record<string, unknown> {
  if (!isZodType(schema)) return standardJsonSchema(schema, io);
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return json;
}

/** The `arguments` list of a prompt, from its JSON Schema. */
export function promptArgumentsOf(input: ToolInput | undefined): PromptArgument[] | undefined {
  if (input === undefined) return undefined;
  const properties = input.jsonSchema['properties'];
  const required = input.jsonSchema['required'];
  const names = new Set(Array.isArray(required) ? required : []);
  if (typeof properties !== 'object' || properties === null) return [];
  return Object.entries(properties as Record<string, unknown>).map(([name, field]) => {
    const description = (field as { description?: unknown } | null)?.description;
    return {
      name,
      ...(typeof description === 'string' ? { description } : {}),
      required: names.has(name),
    };
  });
}
