import type { ToolResult } from '@parley/core';

import type {
  CallNext,
  CallToolParams,
  GetPromptParams,
  MethodResults,
  MiddlewareContext,
  MiddlewareFunction,
  PromptRoundResult,
  ReadResourceParams,
  ResourceRoundResult,
} from './types.ts';

/**
 * The base class of class-style middleware: override the hooks you need. For one request the
 * hooks nest from general to specific — `onRequest`, then the method's own hook (`onCallTool`,
 * …) — and middleware nest in the order given to `use()`, the first outermost. A multi-round call runs the whole chain on every round.
 *
 * A hook calls `callNext()` at most once (a second call rejects) and returns what it resolved
 * to, or a result of its own to short-circuit. Errors thrown below a hook reach it as a throw.
 * An asking `tools/call` round resolves to an `InputRequiredToolResult`; an asking
 * `prompts/get` or `resources/read` round to an `InputRequiredResult` (`isInputRequiredResult`).
 */
export abstract class Middleware {
  /** Every request. */
  onRequest?(context: MiddlewareContext, callNext: CallNext<unknown>): Promise<unknown>;
  /** Each round of `tools/call`; an asking round resolves to an `InputRequiredToolResult`. */
  onCallTool?(
    context: MiddlewareContext<CallToolParams>,
    callNext: CallNext<ToolResult>,
  ): Promise<ToolResult>;
  /** Each round of `prompts/get`. */
  onGetPrompt?(
    context: MiddlewareContext<GetPromptParams>,
    callNext: CallNext<PromptRoundResult>,
  ): Promise<PromptRoundResult>;
  /** Each round of `resources/read`. */
  onReadResource?(
    context: MiddlewareContext<ReadResourceParams>,
    callNext: CallNext<ResourceRoundResult>,
  ): Promise<ResourceRoundResult>;
  onListTools?(
    context: MiddlewareContext,
    callNext: CallNext<MethodResults['tools/list']>,
  ): Promise<MethodResults['tools/list']>;
  onListPrompts?(
    context: MiddlewareContext,
    callNext: CallNext<MethodResults['prompts/list']>,
  ): Promise<MethodResults['prompts/list']>;
  onListResources?(
    context: MiddlewareContext,
    callNext: CallNext<MethodResults['resources/list']>,
  ): Promise<MethodResults['resources/list']>;
  onListResourceTemplates?(
    context: MiddlewareContext,
    callNext: CallNext<MethodResults['resources/templates/list']>,
  ): Promise<MethodResults['resources/templates/list']>;
}

/** Anything `use()` accepts: a `Middleware` (or any object with its hooks), or a function. */
export type MiddlewareEntry = Middleware | MiddlewareFunction;
