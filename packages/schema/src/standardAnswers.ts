import { InvalidAnswerError } from '@parley/core';

import type { StandardSchemaLike } from './standardSchema.ts';

/**
 * Answers to a library's response type are validated by that library (`~standard.validate`), so
 * refinements, transforms and the library's own rules hold exactly, whichever library it is. This
 * module runs the validation and turns the first issue into an `InvalidAnswerError` naming the
 * field.
 */

interface IssueLike {
  readonly message?: unknown;
  /** ArkType's message without the path it starts with. */
  readonly problem?: unknown;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
}

const ASYNC =
  'CompiledResponseType.parse: the schema has an async refinement or transform; answers are ' +
  'parsed synchronously, so use synchronous checks only.';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * A text property of an issue. Libraries build messages lazily in getters, and a getter can
 * throw (ArkType 2.2's does for a field named `constructor`); the answer is still refused, with
 * a plainer reason, rather than the library's bug escaping as a crash.
 */
function textOf(issue: IssueLike | undefined, key: 'problem' | 'message'): string | undefined {
  try {
    const text: unknown = issue?.[key];
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The issue's message. ArkType starts its messages with the path (`owner must be an email
 * address`) and also gives the rest alone as `problem`; the field is named separately, so the
 * path is left off. A custom message is kept as written.
 */
function reasonOf(issue: IssueLike | undefined): string {
  const message = textOf(issue, 'message');
  const problem = textOf(issue, 'problem');
  if (message === undefined) return problem ?? 'does not match the schema';
  return problem !== undefined && message.endsWith(` ${problem}`) ? problem : message;
}

function segment(part: PropertyKey | { readonly key: PropertyKey }): string {
  const key = typeof part === 'object' && part !== null ? part.key : part;
  return typeof key === 'number' ? `item ${key}` : String(key);
}

/**
 * Validates `value` with `schema` and returns the library's output. `wrapped` says the value is
 * the `value` field's content rather than the whole answer, so issues name that field.
 */
export function validateAnswer(
  schema: StandardSchemaLike,
  value: unknown,
  wrapped: boolean,
): unknown {
  const result: unknown = schema['~standard'].validate(value);
  if (isThenable(result)) {
    // Nobody awaits it: keep a rejection from surfacing as an unhandled one.
    Promise.resolve(result).catch(() => undefined);
    throw new TypeError(ASYNC);
  }
  const { issues, value: output } = (result ?? {}) as {
    issues?: readonly IssueLike[];
    value?: unknown;
  };
  if (issues === undefined || issues === null) return output;
  const issue = issues[0];
  // Array.from, not .map: a library's path may be an Array subclass (ArkType's is) whose
  // species constructor reads a single number as a length.
  const path = Array.from(issue?.path ?? [], segment);
  const field = wrapped ? 'value' : path[0];
  const rest = wrapped ? path : path.slice(1);
  const message = reasonOf(issue);
  const reason = rest.length > 0 ? `${message} (at ${rest.join('.')})` : message;
  throw new InvalidAnswerError(
    { ...(field === undefined ? {} : { field }), reason },
    { cause: issues },
  );
}
