import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  InvalidAnswerError,
  isRecord,
  type CreateMessageResult,
  type ElicitationResult,
  type ElicitResult,
  type InputRequest,
  type InputResponse,
  type InputResponses,
  type Root,
} from '@parley/core';
import { compileResponseType, type CompiledResponseType } from '@parley/schema';

import { compiledOf } from './builders.ts';
import { compiledSchemaText, elicitationShapeProblem } from './asked.ts';
import { screenedAgainst } from './reask.ts';

/**
 * Reading the client's answers as typed results. On the modern protocol they arrive in
 * `inputResponses` (already screened by the round: only asked keys, of the right kind); on the
 * handshake era one answer arrives as the result of a pushed request. Both end in the same
 * typed result union, and a bad answer is the same `InvalidAnswerError` in both.
 */

/** Each requested schema compiled as a plain wire schema, for the checks every answer gets first. */
const wireChecks = new WeakMap<object, CompiledResponseType<unknown>>();

/**
 * Check content against the schema as sent — the same checks, in the same words, whatever the
 * response type was written in — before the response type's own parse (refinements, coercion).
 */
function checkAsSent(compiled: CompiledResponseType<unknown>, content: unknown): void {
  const schema = compiled.requestedSchema;
  // The round already checked this very content against this schema (the question it asked).
  if (screenedAgainst(content, compiledSchemaText(schema))) return;
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
            { cause: error, reasonWithAnswer: error.reasonWithAnswer() },
          );
        }
        throw error;
      }
  }
}

/**
 * The one typed reader of answers, for every kind of ask: a form elicitation's answer validated
 * and typed by its response type, a URL elicitation's as a result without data, a sampling
 * request's `CreateMessageResult`, a roots request's `Root[]`. What `ctx.ask`, `ctx.elicit(ask)`
 * and `ctx.answer(key, ask)` return.
 *
 * @throws {InvalidAnswerError} when the answer does not fit the ask (`key` names it).
 */
export function readAnswer(request: InputRequest, answer: unknown, key?: string): unknown {
  switch (request.method) {
    case 'elicitation/create': {
      const result = toElicitationResult(answer, compiledOf(request), key);
      // URL mode: `accept` only says the user agreed to open the page; there is no data.
      if (request.params.mode === 'url' && result.action === 'accept') {
        return new AcceptedElicitation(undefined);
      }
      return result;
    }
    case 'sampling/createMessage':
      if (!isRecord(answer) || !('model' in answer)) {
        throw wrongKind(key ?? '(pushed)', 'a sampling result');
      }
      return answer as unknown as CreateMessageResult;
    case 'roots/list':
      if (!isRecord(answer) || !Array.isArray(answer.roots)) {
        throw wrongKind(key ?? '(pushed)', 'a roots result');
      }
      return answer.roots as Root[];
  }
}

/** The answer under `key` as it came, or `undefined` when the client sent none. */
export function answerUnder(
  responses: InputResponses | null,
  key: string,
): InputResponse | undefined {
  if (responses === null || !Object.hasOwn(responses, key)) return undefined;
  return responses[key];
}

function wrongKind(key: string, expected: string): InvalidAnswerError {
  return new InvalidAnswerError({ key, reason: `expected ${expected} under this key` });
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
