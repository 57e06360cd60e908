/**
 * The public API of @parley/middleware. Everything exported here is public and versioned: add to
 * it deliberately, with a changeset.
 */

export { Middleware } from './middleware.ts';
export type { MiddlewareEntry } from './middleware.ts';
export { runMiddleware } from './runMiddleware.ts';
export type {
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
/** The handler and the call a round belongs to, as `MiddlewareContext` names them. */
export type { Flow, HandlerInfo } from '@parley/core';

export { isAsk } from './roundOutcome.ts';
export type { RoundOutcome } from './roundOutcome.ts';

export { LoggingMiddleware, formatLogLine } from './loggingMiddleware.ts';
export type { LogEntry, LoggingOptions } from './loggingMiddleware.ts';

export { TimingMiddleware } from './timingMiddleware.ts';
export type { FlowTiming, RoundTiming, TimingOptions } from './timingMiddleware.ts';

export { ERROR_META_KEY, ErrorHandlingMiddleware } from './errorHandlingMiddleware.ts';
export type { ErrorCode, ErrorHandlingOptions } from './errorHandlingMiddleware.ts';

export { ResponseCachingMiddleware } from './responseCachingMiddleware.ts';
export type { ResponseCacheStats, ResponseCachingOptions } from './responseCachingMiddleware.ts';

export { RateLimitingMiddleware } from './rateLimitingMiddleware.ts';
export type { RateLimitingOptions } from './rateLimitingMiddleware.ts';
export { RateLimitedError } from './rateLimitedError.ts';
export type { RateLimitedData } from './rateLimitedError.ts';
