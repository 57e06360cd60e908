/**
 * Standard Schema v1 (validation) and Standard JSON Schema v1 (self-description), the two
 * interfaces every schema library Parley reads implements: zod 4 natively, ArkType natively,
 * valibot through `toStandardJsonSchema()` from `@valibot/to-json-schema`. Written here as the
 * smallest structural types Parley relies on, so that no schema library (nor the spec's own
 * types package) is a dependency of `@parley/schema`: each is the author's, optional.
 *
 * They are the same interfaces the MCP SDK v2 calls `StandardSchemaWithJSON`.
 */

/** The JSON Schema dialects of Standard JSON Schema. */
export type StandardJsonSchemaTarget = 'draft-2020-12' | 'draft-07' | 'openapi-3.0';

/** A Standard Schema v1: `~standard.validate`, and the input/output types for inference. */
export interface StandardSchemaLike<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    validate(value: unknown): unknown;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
  };
}

/**
 * A Standard Schema that can also describe itself as JSON Schema (Standard JSON Schema v1):
 * what Parley accepts as a response type or a parameter schema from any library.
 */
export interface StandardJsonSchemaLike<Output = unknown> extends StandardSchemaLike<Output> {
  readonly '~standard': StandardSchemaLike<Output>['~standard'] & {
    readonly jsonSchema: {
      input(options: {
        readonly target: StandardJsonSchemaTarget;
        readonly libraryOptions?: Record<string, unknown>;
      }): Record<string, unknown>;
      output(options: {
        readonly target: StandardJsonSchemaTarget;
        readonly libraryOptions?: Record<string, unknown>;
      }): Record<string, unknown>;
    };
  };
}

/** The output type of a Standard Schema, as `ctx.elicit()` and tool handlers see it. */
export type StandardOutput<S> = S extends {
  readonly '~standard': { readonly types?: infer Types };
}
  ? NonNullable<Types> extends { readonly output: infer Output }
    ? Output
    : unknown
  : never;

/** Whether `value` implements Standard Schema v1 (objects and, as ArkType's are, functions). */
export function isStandardSchema(value: unknown): value is StandardSchemaLike {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props: unknown = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** The library's name, as it gives it (`zod`, `valibot`, `arktype`, …). */
export function vendorOf(schema: StandardSchemaLike): string {
  const vendor: unknown = schema['~standard'].vendor;
  return typeof vendor === 'string' && vendor !== '' ? vendor : 'unnamed';
}

/**
 * Why a Standard Schema cannot be used where JSON Schema is needed, or `undefined` when it can:
 * validation alone does not tell a client what to ask for.
 */
export function describableProblem(schema: StandardSchemaLike): string | undefined {
  const converter: unknown = (schema['~standard'] as { jsonSchema?: unknown }).jsonSchema;
  if (
    typeof converter === 'object' &&
    converter !== null &&
    typeof (converter as { input?: unknown }).input === 'function' &&
    typeof (converter as { output?: unknown }).output === 'function'
  ) {
    return undefined;
  }
  const vendor = vendorOf(schema);
  const fix =
    vendor === 'valibot'
      ? 'wrap it with toStandardJsonSchema() from @valibot/to-json-schema'
      : 'use a schema library (or version) that implements Standard JSON Schema, or a wire schema';
  return (
    `this ${vendor} schema validates (Standard Schema) but cannot describe itself as JSON ` +
    `Schema (Standard JSON Schema), so there is nothing to send; ${fix}.`
  );
}

/** A Standard Schema that describes itself, or a `TypeError` starting with `api`. */
export function describable(schema: StandardSchemaLike, api: string): StandardJsonSchemaLike {
  const problem = describableProblem(schema);
  if (problem !== undefined) throw new TypeError(`${api}: ${problem}`);
  return schema as StandardJsonSchemaLike;
}
