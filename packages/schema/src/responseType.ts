import type { ElicitContentValue, ElicitationSchema } from '@parley/core';

import type { StandardJsonSchemaLike, StandardOutput } from './standardSchema.ts';

/**
 * The vocabulary of `responseType`: what an author may ask for, and the TypeScript type of the
 * answer. Types only; `compileResponseType` gives them their runtime meaning.
 */

/** Options with a display title each: `{ low: { title: 'Low Priority' }, … }` (SEP-1330). */
export type TitledOptions = { readonly [value: string]: { readonly title: string } };

/**
 * A TypeScript string enum as it exists at runtime (`enum Priority { LOW = 'low' }` is the
 * object `{ LOW: 'low' }`). The answer is one of its values, typed as the enum.
 */
export type StringEnumObject = { readonly [key: string]: string };

/**
 * A zod 4 schema, recognised by shape rather than by class so that a schema made by the
 * author's own copy of zod works as well as one made by Parley's.
 */
export interface ZodSchemaLike {
  readonly _zod: { readonly def: object; readonly output: unknown };
}

/** `T` read-only all the way down (how an inline wire schema is accepted). */
export type DeepReadonly<T> = T extends readonly (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * A wire `ElicitationSchema` written inline. Read-only all the way down, so a literal inferred
 * with `const` (readonly arrays) is accepted as well as a mutable `ElicitationSchema`.
 */
export type ElicitationSchemaInput = DeepReadonly<ElicitationSchema>;

/**
 * Everything an author may pass as `responseType`:
 *
 * - `String`, `Number`, `Boolean`: one free-text, number or yes/no answer;
 * - `['low', 'high']`: one of these (single select); `[['bug', 'docs']]`: any of these;
 * - `{ low: { title: 'Low Priority' } }` and `[{ … }]`: the same with display titles;
 * - a TypeScript string enum, or `[TheEnum]` for several of its values;
 * - a zod 4 schema: scalars, `z.enum`, `z.literal([...])`, `z.array(z.enum(...))`, `z.object`;
 * - a schema from any Standard JSON Schema library: ArkType's `type(...)`, valibot's through
 *   `toStandardJsonSchema(...)`, …, read by the same rules as zod's;
 * - a wire `ElicitationSchema`, sent as it is;
 * - `null`: approve-only, nothing to fill in.
 */
export type ResponseType =
  | StringConstructor
  | NumberConstructor
  | BooleanConstructor
  | null
  | readonly string[]
  | readonly [readonly string[]]
  | TitledOptions
  | readonly [TitledOptions]
  | StringEnumObject
  | readonly [StringEnumObject]
  | ZodSchemaLike
  | StandardJsonSchemaLike
  | ElicitationSchemaInput;

/** The answer type of a multi-select over `Inner` (`[['a', 'b']]`, `[TitledOptions]`, `[Enum]`). */
export type MultiSelectOf<Inner> = Inner extends readonly string[]
  ? Inner[number][]
  : Inner extends TitledOptions
    ? (keyof Inner & string)[]
    : Inner extends StringEnumObject
      ? Inner[keyof Inner][]
      : never;

/** The type of the data an author gets back for response type `R`. */
export type InferResponse<R> = R extends null
  ? undefined
  : R extends StringConstructor
    ? string
    : R extends NumberConstructor
      ? number
      : R extends BooleanConstructor
        ? boolean
        : R extends { readonly _zod: { readonly output: infer Output } }
          ? Output
          : R extends StandardJsonSchemaLike
            ? StandardOutput<R>
            : R extends readonly string[]
              ? R[number]
              : R extends readonly [infer Inner]
                ? MultiSelectOf<Inner>
                : R extends ElicitationSchemaInput
                  ? Record<string, ElicitContentValue>
                  : R extends TitledOptions
                    ? keyof R & string
                    : R extends StringEnumObject
                      ? R[keyof R]
                      : never;

/** Labels for the wrapper field of a scalar, enum or list response type. */
export interface ResponseTypeOptions {
  /** The wrapper field's `title`, shown by clients instead of a generic "Value". */
  responseTitle?: string;
  /** The wrapper field's `description`. */
  responseDescription?: string;
}

/** A response type turned into what goes on the wire and what comes back. */
export interface CompiledResponseType<TData> {
  /** The exact JSON sent as `requestedSchema`. */
  readonly requestedSchema: ElicitationSchema;
  /** True when a scalar/enum/list was wrapped in a single `value` field. */
  readonly wrapped: boolean;
  /**
   * Validate the `content` of an accepted ElicitResult, fill schema defaults for omitted
   * fields, unwrap, and return the typed value. Throws `InvalidAnswerError` naming the field.
   */
  parse(content: unknown): TData;
}
