/**
 * The public API of @parley/middleware. Everything exported here is public and versioned: add to
 * it deliberately, with a changeset.
 */

export { Middleware } from './middleware.ts';
export type {
  CallNext,
  CallToolParams,
  FlowInfo,
  GetPromptParams,
  HandlerInfo,
  MethodResults,
  MiddlewareContext,
  MiddlewareFunction,
  PromptRoundResult,
  ReadResourceParams,
  ResourceRoundResult,
  RoundContextView,
} from './types.ts';
