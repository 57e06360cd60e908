import {
  InputRequiredToolResult,
  ParleyError,
  ToolResult,
  isInputRequiredResult,
} from '@parley/core';

import type { MiddlewareContext } from './types.ts';

/**
 * How the built-ins read one round: what it was for, and how it ended. Shared so that logging,
 * timing and caching agree on what an ask, a final result and an error are.
 */

/** How a round ended: a final result, an ask, or an error (thrown, or an `isError` tool result). */
export type RoundOutcome = 'complete' | 'input_required' | 'error';

/** True for an asking round of any method: an `InputRequiredToolResult` or an `InputRequiredResult`. */
export function isAsk(result: unknown): boolean {
  return result instanceof InputRequiredToolResult || isInputRequiredResult(result);
}

/** The outcome of a round that resolved to `result`, and the keys it asked for. */
export function outcomeOf(result: unknown): { outcome: RoundOutcome; askedKeys: string[] } {
  if (result instanceof InputRequiredToolResult) {
    return { outcome: 'input_required', askedKeys: result.askedKeys };
  }
  if (isInputRequiredResult(result)) {
    return { outcome: 'input_required', askedKeys: Object.keys(result.inputRequests ?? {}) };
  }
  if (result instanceof ToolResult && result.isError) return { outcome: 'error', askedKeys: [] };
  return { outcome: 'complete', askedKeys: [] };
}

/** The tool or prompt name, or the URI, the request is for; `undefined` for lists. */
export function targetOf(context: MiddlewareContext<object>): string | undefined {
  if (context.handler !== undefined) return context.handler.name;
  const params = context.params as { name?: unknown; uri?: unknown };
  if (typeof params.name === 'string') return params.name;
  return typeof params.uri === 'string' ? params.uri : undefined;
}

/**
 * True when the round's result may depend on something that is not in its request: answers to
 * earlier asks (modern era: a continuation, or any round of a resumed flow) or answers to
 * requests it pushed while it ran (handshake era).
 */
export function dependsOnAnswers(context: MiddlewareContext<object>): boolean {
  return (
    context.isContinuation ||
    context.resumesFlow ||
    (context.flow !== undefined && context.flow.round > 1) ||
    context.pushedRequests > 0
  );
}

/** A short, stable description of a thrown value for logs: `TypeError: message`. */
export function describeError(error: unknown): { name: string; message: string; code?: string } {
  if (error instanceof ParleyError) {
    return { name: error.name, message: error.message, code: error.code };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
