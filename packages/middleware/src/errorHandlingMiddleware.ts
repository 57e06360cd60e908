import {
  checkOptionKeys,
  optionKeys,
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  ParleyError,
  ToolResult,
} from '@parley/core';

import { Middleware } from './middleware.ts';
import { RateLimitedError } from './rateLimitedError.ts';
import type { CallNext, MiddlewareContext } from './types.ts';

/** The `_meta` key under which an error result carries its stable code. */
export const ERROR_META_KEY = 'parley/error';

/** The codes {@link ErrorHandlingMiddleware} gives errors: core's, plus `rate_limited`. */
export type ErrorCode = ParleyError['code'] | 'rate_limited';

/** Options of {@link ErrorHandlingMiddleware}. */
export interface ErrorHandlingOptions {
  /**
   * Send `Internal error` instead of the message of errors that are not Parley errors (a
   * database driver's message can carry hostnames or query text). Default false.
   */
  maskErrorDetails?: boolean;
  /** Called with every error thrown inside the chain, including those passed through. */
  onError?: (error: unknown, context: MiddlewareContext) => void;
}

const API = 'ErrorHandlingMiddleware';
const MASKED_MESSAGE = 'Internal error';

/**
 * Errors about the protocol rather than the work (a tampered state, an answer that does not fit,
 * the wrong era's API): the server sends them as JSON-RPC errors even from a tool, and so must
 * this middleware, or a client could not tell a bad retry from a failed tool.
 */
function isProtocolLevel(error: unknown): boolean {
  return (
    error instanceof EraMismatchError ||
    error instanceof InvalidAnswerError ||
    error instanceof InvalidInputResponsesError ||
    error instanceof InvalidRequestStateError
  );
}

/** An error that already names its JSON-RPC code (the SDK's `ProtocolError`, `ResourceNotFoundError`). */
function hasJsonRpcCode(error: unknown): boolean {
  return error instanceof Error && Number.isInteger((error as { code?: unknown }).code);
}

/** The stable code of a thrown value. */
export function errorCodeOf(error: unknown): ErrorCode {
  if (error instanceof RateLimitedError) return 'rate_limited';
  return error instanceof ParleyError ? error.code : 'internal';
}

const OPTION_KEYS = optionKeys<ErrorHandlingOptions>()(['maskErrorDetails', 'onError']);

/**
 * Turns what handlers (and inner middleware) throw into consistent errors:
 *
 * - `tools/call`: an `isError` tool result whose text is the message (or `Internal error` when
 *   masked) and whose `_meta[ERROR_META_KEY]` is `{ code }`, so clients can branch on a code
 *   instead of parsing text;
 * - `prompts/get`, `resources/read` and lists (which have no `isError`): a `ParleyError` with the
 *   same code and message, which the server sends as its JSON-RPC error.
 *
 * Protocol-level Parley errors (invalid state, answers or era) and errors that already carry a
 * JSON-RPC code on prompts/resources pass through unchanged. It never fires on an asking round:
 * an ask is a result the handler returned, not something it threw.
 */
export class ErrorHandlingMiddleware extends Middleware {
  readonly #mask: boolean;
  readonly #onError: ((error: unknown, context: MiddlewareContext) => void) | undefined;

  constructor(options: ErrorHandlingOptions = {}) {
    super();
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`${API}: options must be an object.`);
    }
    checkOptionKeys(API, 'options', options, OPTION_KEYS);
    const { maskErrorDetails = false, onError } = options;
    if (typeof maskErrorDetails !== 'boolean') {
      throw new TypeError(`${API}: maskErrorDetails must be a boolean.`);
    }
    if (onError !== undefined && typeof onError !== 'function') {
      throw new TypeError(`${API}: onError must be a function.`);
    }
    this.#mask = maskErrorDetails;
    this.#onError = onError;
  }

  override async onRequest(
    context: MiddlewareContext,
    callNext: CallNext<unknown>,
  ): Promise<unknown> {
    try {
      return await callNext();
    } catch (error) {
      this.#onError?.(error, context);
      if (isProtocolLevel(error)) throw error;
      if (context.method === 'tools/call') {
        return new ToolResult({
          content: [{ type: 'text', text: this.#messageOf(error) }],
          isError: true,
          _meta: { [ERROR_META_KEY]: { code: errorCodeOf(error) } },
        });
      }
      if (error instanceof ParleyError || hasJsonRpcCode(error)) throw error;
      throw new ParleyError('internal', this.#messageOf(error), { cause: error });
    }
  }

  #messageOf(error: unknown): string {
    if (error instanceof ParleyError) return error.message;
    if (this.#mask) return MASKED_MESSAGE;
    return error instanceof Error ? error.message : String(error);
  }
}
