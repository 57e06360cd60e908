import { JSON_RPC_ERRORS, isRecord, jsonRpcError, type JsonRpcErrorName } from '@parley/core';

import type { JsonRpcOut, ModernReply } from './messages.ts';

/**
 * The one way the server answers a request with a JSON-RPC error of its own: by the error's
 * name in `@parley/core`'s table, which gives its code and the HTTP status it travels with. The
 * modern dispatcher, the HTTP endpoint, its hosts and sessions, and stdio all build theirs here.
 */

/** What an error reply may carry besides its name and message. */
export interface ErrorReplyOptions {
  /** The request's id, when it has a usable one. */
  id?: string | number | null;
  data?: unknown;
  /** HTTP headers to send with it (`Retry-After`, `Allow`, `Connection: close`). */
  headers?: Record<string, string>;
}

/** A JSON-RPC error as a whole answer: a modern reply, and an HTTP one (`json`). */
export class ErrorReply implements ModernReply {
  readonly status: number;
  readonly message: Extract<JsonRpcOut, { error: unknown }>;
  readonly headers: Record<string, string> | undefined;
  #json: string | undefined;

  constructor(status: number, message: ErrorReply['message'], headers?: Record<string, string>) {
    this.status = status;
    this.message = message;
    this.headers = headers;
  }

  /** The body, serialised (once, when an HTTP host first reads it). */
  get json(): string {
    return (this.#json ??= JSON.stringify(this.message));
  }
}

export function errorReply(
  name: JsonRpcErrorName,
  message: string,
  options: ErrorReplyOptions = {},
): ErrorReply {
  return new ErrorReply(
    JSON_RPC_ERRORS[name].httpStatus,
    { jsonrpc: '2.0', id: options.id ?? null, error: jsonRpcError(name, message, options.data) },
    options.headers,
  );
}

/** The `id` to echo on an error about a message, when it has a usable one. */
export function idOf(message: unknown): string | number | null {
  const id = isRecord(message) ? message.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
