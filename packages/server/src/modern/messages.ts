import type { JsonRpcErrorObject } from '@parley/core';
import type { AuthInfo } from '@modelcontextprotocol/server';

import type { Envelope } from './envelope.ts';
import type { HeaderReader } from './headers.ts';

/**
 * What the modern dispatcher and the transports that carry it (HTTP, stdio) say to each other:
 * the messages it sends, what a transport gives it with a request, and its reply.
 */

/** A JSON-RPC message this dispatcher sends. */
export type JsonRpcOut =
  | { jsonrpc: '2.0'; id: string | number | null; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: string | number | null; error: JsonRpcErrorObject }
  | { jsonrpc: '2.0'; method: string; params: Record<string, unknown> };

/** A request that passed the validation ladder: its id, method, params and envelope. */
export interface CheckedRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
  envelope: Envelope;
}

/** The dispatcher's answer: the message to send (none for a notification) and its HTTP status. */
export interface ModernReply {
  status: number;
  message?: JsonRpcOut;
}

/** What the transport a request came over gives the dispatcher. */
export interface ModernTransport {
  /** HTTP only: request headers (the header rules of SEP-2243 apply only when present). */
  headers?: HeaderReader;
  /** A principal the host already authenticated. */
  authInfo?: AuthInfo | undefined;
  /**
   * Aborted when the client cancels the request or goes away. Read only when needed (it may be a
   * getter that makes the signal then), so pass it on by getter, never by copying.
   */
  readonly signal: AbortSignal;
  /** Send a notification related to the request (progress, log). */
  notify(message: JsonRpcOut): void;
}
