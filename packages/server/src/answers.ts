import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  InvalidAnswerError,
  type CreateMessageResult,
  type ElicitationResult,
  type ElicitResult,
  type InputResponses,
  type Root,
} from '@parley/core';
import { compileResponseType, type CompiledResponseType } from '@parley/schema';

import { elicitationShapeProblem } from './round/asked.ts';

/**
 * Reading the client's answers as typed results. On the modern protocol they arrive in
 * `inputResponses` (already screened by the round: only asked keys, of the right kind); on the
 * handshake era one answer arrives as the result of a pushed request. Both end in the same
 * typed result union, and a bad answer is the same `InvalidAnswerError` in both.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each requested schema compiled as a plain wire schema, for the checks every answer gets first. */
const wireChecks = new WeakMap<object, CompiledResponseType<unknown>>();

/**
 * Check content against the schema as sent — the same checks, in the same words, whatever the
 * response type was written in — before the response type's own parse (refinements, coercion).
 */
function checkAsSent(compiled: CompiledResponseType<unknown>, content: unknown): void {
  const schema = compiled.requestedSchema;
  let check = wireChecks.get(schema);
  if (check === undefined) {
    check = compileResponseType(schema as never) as CompiledResponseType<unknown>;
    wireChecks.set(schema, check);
  }
  check.parse(content);
}

/**
 * One elicitation answer as the author's typed result. Accepted content is validated against
 * the response type (defaults filled, value unwrapped); decline and cancel are answers too.
 *
 * @throws {InvalidAnswerError} when the answer is not an elicitation result, or its content
 *   does not fit; `key` names it when given.
 */
export function toElicitationResult<TData>(
  answer: unknown,
  compiled: CompiledResponseType<TData>,
  key?: string,
): ElicitationResult<TData> {
  const problem = isRecord(answer)
    ? elicitationShapeProblem(answer)
    : 'the client did not answer with an elicitation result';
  if (problem !== undefined) {
    throw new InvalidAnswerError({ ...(key !== undefined ? { key } : {}), reason: problem });
  }
  const { action, content } = answer as unknown as ElicitResult;
  switch (action) {
    case 'decline':
      return new DeclinedElicitation();
    case 'cancel':
      return new CancelledElicitation();
    case 'accept':
      try {
        checkAsSent(compiled as CompiledResponseType<unknown>, content ?? {});
        return new AcceptedElicitation(compiled.parse(content ?? {}));
      } catch (error) {
        if (
          error instanceof InvalidAnswerError &&
          key !== undefined &&
          error.data?.key === undefined
        ) {
          throw new InvalidAnswerError(
            { ...error.data, key, reason: error.data?.reason ?? error.message },
            { cause: error },
          );
        }
        throw error;
      }
  }
}

function wrongKind(key: string, expected: string): InvalidAnswerError {
  return new InvalidAnswerError({ key, reason: `expected ${expected} under this key` });
}

/** The elicitation answer under `key`, or `undefined` when the client sent none. */
export function elicitAnswerOf(
  responses: InputResponses | null,
  key: string,
): ElicitResult | undefined {
  const entry = responses?.[key];
  if (entry === undefined) return undefined;
  if (!('action' in entry)) throw wrongKind(key, 'an elicitation result');
  return entry;
}

/** The sampling answer under `key`, or `undefined` when the client sent none. */
export function samplingAnswerOf(
  responses: InputResponses | null,
  key: string,
): CreateMessageResult | undefined {
  const entry = responses?.[key];
  if (entry === undefined) return undefined;
  if (!('model' in entry)) throw wrongKind(key, 'a sampling result');
  return entry;
}

/** The roots answer under `key`, or `undefined` when the client sent none. */
export function rootsAnswerOf(responses: InputResponses | null, key: string): Root[] | undefined {
  const entry = responses?.[key];
  if (entry === undefined) return undefined;
  if (!('roots' in entry)) throw wrongKind(key, 'a roots result');
  return entry.roots;
}

/** Why a pushed sampling or roots result is malformed, or `undefined`. */
export function pushedResultProblem(
  method: 'sampling/createMessage' | 'roots/list',
  result: unknown,
): string | undefined {
  if (!isRecord(result))
    return `the client answered ${method} with ${typeof result}, not a result object`;
  if (method === 'roots/list') {
    return Array.isArray(result.roots) &&
      result.roots.every((root) => isRecord(root) && typeof root.uri === 'string')
      ? undefined
      : 'the client answered roots/list without an array of { uri }';
  }
  return typeof result.model === 'string' &&
    (result.role === 'user' || result.role === 'assistant') &&
    isRecord(result.content)
    ? undefined
    : 'the client answered sampling/createMessage without role, content and model';
}
