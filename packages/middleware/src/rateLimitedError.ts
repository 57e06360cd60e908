import { ParleyError } from '@parley/core';

/** What a {@link RateLimitedError} carries. */
export interface RateLimitedData {
  /** The key the flow was counted under (by default the principal, or `'anonymous'`). */
  key: string;
  /** The limit: flows per window. */
  maxFlows: number;
  windowMs: number;
  /** When the oldest counted flow leaves the window and a new one may start. */
  retryAfterMs: number;
}

/**
 * A new flow was refused by {@link RateLimitingMiddleware}. Its `code` is `'internal'` (core's
 * vocabulary has no rate-limit code, and JSON-RPC none either), so on the wire it is `-32603`
 * with this message; a tool call without `ErrorHandlingMiddleware` shows it as an `isError`
 * result, which a model can read and act on. Branded like core's errors, so `instanceof` works
 * across ESM and CJS copies of this package.
 */
export class RateLimitedError extends ParleyError<RateLimitedData> {
  static override readonly brand: string = '@parley/middleware:RateLimitedError';

  constructor(data: RateLimitedData, options: { cause?: unknown } = {}) {
    super(
      'internal',
      `Rate limit exceeded: at most ${data.maxFlows} calls per ${data.windowMs} ms; retry in ${Math.ceil(data.retryAfterMs / 1000)} s.`,
      { data, ...options },
    );
  }
}
