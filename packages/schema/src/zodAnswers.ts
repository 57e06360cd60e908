import { InvalidAnswerError } from '@parley/core';

import type { ZodSchemaLike } from './responseType.ts';

/**
 * Answers to zod response types are parsed by the zod schema itself, so refinements, transforms
 * and zod's own rules hold exactly; this module runs the parse and turns the first zod issue
 * into an `InvalidAnswerError` naming the field.
 */

interface IssueLike {
  readonly message: string;
  readonly code?: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
}

type ParseOutcome = { success: true; data: unknown } | { success: false; issues: IssueLike[] };

interface SafeParser {
  safeParse?: (value: unknown) => {
    success: boolean;
    data?: unknown;
    error?: { issues: IssueLike[] };
  };
  '~standard'?: { validate: (value: unknown) => unknown };
}

const ASYNC =
  'CompiledResponseType.parse: the zod schema has an async refinement or transform; answers are ' +
  'parsed synchronously, so use synchronous checks only.';

function run(schema: ZodSchemaLike, value: unknown): ParseOutcome {
  const parser = schema as SafeParser;
  try {
    if (typeof parser.safeParse === 'function') {
      const result = parser.safeParse(value);
      return result.success
        ? { success: true, data: result.data }
        : { success: false, issues: result.error?.issues ?? [] };
    }
    // zod core schemas have no methods, only the Standard Schema interface.
    const result = parser['~standard']?.validate(value) as
      { value?: unknown; issues?: IssueLike[] } | Promise<unknown> | undefined;
    if (result === undefined || result instanceof Promise) throw new TypeError(ASYNC);
    return result.issues
      ? { success: false, issues: result.issues }
      : { success: true, data: result.value };
  } catch (error) {
    if (error instanceof Error && error.message.includes('Promise during synchronous parse')) {
      throw new TypeError(ASYNC, { cause: error });
    }
    throw error;
  }
}

function segment(part: PropertyKey | { readonly key: PropertyKey }): string {
  const key = typeof part === 'object' ? part.key : part;
  return typeof key === 'number' ? `item ${key}` : String(key);
}

/**
 * Parses `value` with `schema`. `wrapped` says the value is the `value` field's content rather
 * than the whole answer; `present` says which fields the answer (with defaults) had, so a
 * missing field reads "is required" rather than zod's "expected string, received undefined".
 */
export function parseWithZod(
  schema: ZodSchemaLike,
  value: unknown,
  wrapped: boolean,
  present: (field: string) => boolean,
): unknown {
  const outcome = run(schema, value);
  if (outcome.success) return outcome.data;
  const issue = outcome.issues[0];
  const path = (issue?.path ?? []).map(segment);
  const field = wrapped ? 'value' : path[0];
  const rest = wrapped ? path : path.slice(1);
  const missing = field !== undefined && rest.length === 0 && !present(field);
  const message = issue?.message ?? 'does not match the schema';
  const reason =
    missing && issue?.code === 'invalid_type'
      ? 'is required'
      : rest.length > 0
        ? `${message} (at ${rest.join('.')})`
        : message;
  throw new InvalidAnswerError(
    { ...(field === undefined ? {} : { field }), reason },
    { cause: outcome.issues },
  );
}
