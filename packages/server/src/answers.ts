import {
  AcceptedElicitation,
  CancelledElicitation,
  DeclinedElicitation,
  InvalidAnswerError,
  InvalidInputResponsesError,
  type CreateMessageResult,
  type ElicitationResult,
  type ElicitResult,
  type InputResponses,
  type Root,
} from '@parley/core';
import type { CompiledResponseType } from '@parley/schema';

/**
 * Reading the client's answers. On the modern protocol they arrive in `inputResponses` and are
 * attacker-controlled until checked here; on the handshake era one answer arrives as the result
 * of a pushed request. Both end in the same typed result union.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const ACTIONS: ReadonlySet<unknown> = new Set(['accept', 'decline', 'cancel']);

function entryProblem(entry: unknown): string | undefined {
  if (!isRecord(entry))
    return 'expected an object (an ElicitResult, CreateMessageResult or ListRootsResult)';
  if ('action' in entry) {
    if (!ACTIONS.has(entry.action))
      return `action must be accept, decline or cancel, got ${JSON.stringify(entry.action)}`;
    if (entry.content !== undefined && !isRecord(entry.content)) return 'content must be an object';
    return undefined;
  }
  if ('roots' in entry) {
    if (
      !Array.isArray(entry.roots) ||
      !entry.roots.every((root) => isRecord(root) && typeof root.uri === 'string')
    ) {
      return 'roots must be an array of { uri }';
    }
    return undefined;
  }
  if ('model' in entry || 'role' in entry) {
    if (
      typeof entry.model !== 'string' ||
      (entry.role !== 'user' && entry.role !== 'assistant') ||
      entry.content === undefined
    ) {
      return 'a sampling result needs role, content and model';
    }
    return undefined;
  }
  return 'not an elicitation, sampling or roots result';
}

/**
 * Check the shape of a retry's `inputResponses`. Keys the SDK already set aside as malformed
 * (`dropped`) and entries of no known result shape are a protocol error, not a missing answer.
 *
 * @throws {InvalidInputResponsesError}
 */
export function checkInputResponses(
  responses: Record<string, unknown> | undefined,
  dropped: readonly string[] = [],
): InputResponses | null {
  const [firstDropped] = dropped;
  if (firstDropped !== undefined) {
    throw new InvalidInputResponsesError({
      key: firstDropped,
      reason: 'expected a bare result object',
    });
  }
  if (responses === undefined) return null;
  for (const [key, entry] of Object.entries(responses)) {
    const problem = entryProblem(entry);
    if (problem !== undefined) throw new InvalidInputResponsesError({ key, reason: problem });
  }
  return Object.freeze({ ...(responses as InputResponses) });
}

/**
 * One elicitation answer as the author's typed result. Accepted content is validated against
 * the response type (defaults filled, value unwrapped); decline and cancel are answers too.
 *
 * @throws {InvalidAnswerError} when accepted content does not fit.
 */
export function toElicitationResult<TData>(
  answer: ElicitResult,
  compiled: CompiledResponseType<TData>,
  key?: string,
): ElicitationResult<TData> {
  switch (answer.action) {
    case 'decline':
      return new DeclinedElicitation();
    case 'cancel':
      return new CancelledElicitation();
    case 'accept':
      try {
        return new AcceptedElicitation(compiled.parse(answer.content ?? {}));
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
