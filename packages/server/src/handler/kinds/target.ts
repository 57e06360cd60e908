import {
  InputRequiredToolResult,
  ToolResult,
  isInputRequiredResult,
  type CallToolResult,
  type Era,
  type HandlerInfo,
  type InputRequiredResult,
} from '@parley/core';
import type { PromptRoundResult, ResourceRoundResult } from '@parley/middleware';

import type { AskedRecord } from '../../ask/asked.ts';
import type { Context } from '../context.ts';
import type { ToolDefinition } from '../definitions.ts';
import type { RoundRelay } from '../relayRound.ts';

/**
 * What one `tools/call`, `prompts/get` or `resources/read` is for, resolved from its params: the
 * handler, how to check its arguments, how to run it, and how its result is normalised. Each kind
 * of handler makes its own (`tool.ts`, `prompt.ts`, `resource.ts`), result shaping included, and
 * the round treats them alike through this.
 */

/** A round's result after normalisation: a tool's, a prompt's or a resource's, or an ask. */
export type NormalisedResult = ToolResult | PromptRoundResult | ResourceRoundResult;

/** The connection a final result goes to, as far as its shape depends on it. */
export interface ResultWire {
  readonly request: { readonly era: Era };
  /** How a final tool result is shaped for this connection's wire (SEP-2106 projection). */
  projectToolResult(result: CallToolResult, outputJsonSchema: unknown): CallToolResult;
}

export type ArgumentCheck = { ok: true; value: unknown } | { ok: false; issues: string[] };

export interface RoundTarget {
  /** The handler, as the context, middleware and warnings name it. */
  handler: HandlerInfo;
  /** The request's params as middleware sees them. */
  middlewareParams: Record<string, unknown>;
  /** What sealed state is bound to: the arguments exactly as the client sent them. */
  bindingArguments: unknown;
  /** The arguments to check, as sent. */
  arguments: unknown;
  /** How arguments are checked (at once, with nothing to await, when there is no schema). */
  check(args: unknown): ArgumentCheck | Promise<ArgumentCheck>;
  /**
   * Run the handler and normalise what it returned (at once when the handler answered at once).
   * A handler that throws synchronously throws here: the caller awaits inside its `try`.
   */
  run(args: unknown, ctx: Context): NormalisedResult | Promise<NormalisedResult>;
  /** Normalise what the middleware chain resolved to (it may return a value of its own). */
  normalise(value: unknown): NormalisedResult;
  /**
   * A final result, checked and shaped for `wire` (at once where nothing needs awaiting).
   * `continuation`: the round came back with answers or state, which the result may depend on.
   */
  finish(
    result: NormalisedResult,
    wire: ResultWire,
    continuation: boolean,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Answers that may come without state: the asks the handler declared at registration. */
  declaredAsks: AskedRecord;
  /** How many times a bad answer is asked again (the handler's own, or `undefined`). */
  maxReasks: number | undefined;
  /** The handler's own answer to a modern round, before any state opens (a proxy's). */
  relayRound?: RoundRelay | undefined;
  /** Tools: the output schema, for the result's check and projection. */
  tool?: ToolDefinition;
  /**
   * Tools under the `'arguments'` fallback: the arguments standing in for answers this client
   * cannot give, taken out of `arguments` before the tool's schema checks them.
   */
  askArguments: Readonly<Record<string, unknown>>;
}

/** The ask inside a normalised result, or `undefined` for a final one. */
export function askOf(result: NormalisedResult): InputRequiredResult | undefined {
  if (result instanceof InputRequiredToolResult) return result.toJSON();
  if (result instanceof ToolResult) return undefined;
  return isInputRequiredResult(result) ? result : undefined;
}

/** A text content block. */
export function textBlock(value: string): { type: 'text'; text: string } {
  return { type: 'text', text: value };
}
