import type { InferResponse, ResponseTypeOptions } from './responseType.ts';

/**
 * Compile-time twins of two refusals `compileResponseType` makes at run time, so an editor
 * underlines the mistake where it is written:
 *
 * - a schema-library response type whose shape elicitation cannot carry (a nested object, an
 *   array of objects, a free-text list, a union that is not an enum): MCP's form schemas are flat
 *   objects of strings, numbers, booleans, enums and enum lists;
 * - `responseTitle` / `responseDescription` on a response type that has its own fields (an
 *   object) or none (`null`): they label the `value` wrapper of a scalar, enum or list.
 *
 * Types only. The run-time checks stay, for what the types cannot see (a `pattern`, a JSON
 * Schema object built at run time).
 *
 * The helpers below that are not exported (`StandardInput`, `Unknowable`, `CarriableInput`,
 * `IsWrapped`, `NotForFields`) are type-level arithmetic: nobody writes or receives a value of
 * them. `typedoc.json` in this package lists them as intentionally not exported, so the
 * reference's "every referenced type is exported" check still catches anything else.
 */

type IsTrue<T> = [T] extends [true] ? true : false;

/** The input type of a Standard Schema (zod 4, valibot, ArkType…); `never` for anything else. */
type StandardInput<R> = R extends {
  readonly '~standard': { readonly types?: infer Types };
}
  ? NonNullable<Types> extends { readonly input: infer Input }
    ? Input
    : never
  : never;

/** `any` and `unknown` say nothing about the shape: left to the run-time check. */
type Unknowable<T> = 0 extends 1 & T ? true : unknown extends T ? true : false;

/** One field (or a wrapped value): a scalar, an enum, or a list of enum values. */
type CarriableValue<T> = Unknowable<T> extends true ? true : CarriableMember<T>;

type CarriableMember<T> = T extends string | number | boolean | null | undefined
  ? true
  : T extends readonly (infer Item)[]
    ? Item extends string
      ? string extends Item
        ? false // a free-text list
        : true
      : false
    : false;

type CarriableObject<O> = IsTrue<{ [K in keyof O]-?: IsTrue<CarriableValue<O[K]>> }[keyof O]>;

type CarriableInput<I> = [I] extends [readonly unknown[]]
  ? IsTrue<CarriableValue<I>>
  : [I] extends [object]
    ? [keyof I] extends [never]
      ? true
      : CarriableObject<I>
    : IsTrue<CarriableValue<I>>;

/** The marker a response type of an uncarriable shape must have (and cannot). */
export interface UncarriableShape {
  /**
   * Elicitation carries only flat objects of strings, numbers, booleans, enums and enum lists:
   * no nested objects, arrays of objects, free-text lists or non-enum unions.
   */
  readonly 'elicitation cannot carry this shape: flatten it (no nested objects, arrays of objects or free-text lists)': true;
}

/**
 * `unknown` when elicitation can carry the response type `R`; otherwise a type `R` cannot
 * satisfy, so `responseType: R & ElicitableShape<R>` is a compile-time error naming the problem.
 */
export type ElicitableShape<R> = [StandardInput<R>] extends [never]
  ? unknown
  : Unknowable<StandardInput<R>> extends true
    ? unknown
    : CarriableInput<StandardInput<R>> extends true
      ? unknown
      : UncarriableShape;

/** True when Parley wraps `R` in one `value` field (a scalar, an enum, a list). */
type IsWrapped<R> = R extends null
  ? false
  : [InferResponse<R>] extends [readonly unknown[]]
    ? true
    : [InferResponse<R>] extends [object]
      ? false
      : true;

/** What `responseTitle` is typed as where it cannot apply: the reason, as the only value. */
type NotForFields =
  'responseTitle and responseDescription label the value wrapper of a scalar, enum or list; title each field instead';

/**
 * The label options for response type `R`: `responseTitle` and `responseDescription` where
 * Parley wraps `R` in a `value` field, and a compile-time error (naming why) where it does not.
 */
export type ResponseTypeOptionsFor<R> =
  IsWrapped<R> extends true
    ? ResponseTypeOptions
    : { responseTitle?: NotForFields; responseDescription?: NotForFields };
