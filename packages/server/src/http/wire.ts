import type { AuthInfo } from '@modelcontextprotocol/server';

import type { HeaderReader } from '../modern/headers.ts';

/**
 * What the HTTP endpoint works on, whatever the host: a request already read (one body, parsed
 * at most once) and a way to answer it. `node:http` and web-standard `fetch` each adapt to
 * these in a few lines, and everything after the adaptation is shared.
 */

/** The body of a request, as the host gave it. */
export type InboundBody =
  /** The bytes, decoded as UTF-8 (not yet parsed). */
  | { text: string }
  /** Already parsed by the host's framework (Express' `express.json()`, Fastify). */
  | { parsed: unknown }
  | undefined;

/** One HTTP request, host-neutral. */
export interface Inbound {
  /** `GET`, `POST`, … as sent. */
  method: string;
  headers: HeaderReader;
  body: InboundBody;
  /**
   * Aborted when the client goes away (which is how a modern client cancels a call). A host may
   * make it on first read: pass it on by getter.
   */
  readonly signal: AbortSignal;
  /** A principal the host already authenticated. */
  authInfo?: AuthInfo | undefined;
  /**
   * The client's network address, when the host knows it (Node's `req.socket.remoteAddress`; a
   * web `fetch` host knows none): the client `maxSessionsPerClient` counts when there is no
   * principal.
   */
  readonly clientAddress?: string | undefined;
  /**
   * The request as a web `Request`, for what needs one (the stateless fallback, a host's
   * `verifyToken`); built on demand, so the modern path never pays for it.
   */
  toRequest(): Request;
}

/** A whole answer. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A JSON body, already serialised; none for `202`s and the like. */
  json?: string;
}

/** An open `text/event-stream` answer. */
export interface EventSink {
  /** Write one or more complete SSE events. */
  write(text: string): void;
  end(): void;
}

/** How the endpoint answers: once, whole, or as a stream. */
export interface Responder {
  send(reply: Reply): void;
  /**
   * Start a `200 text/event-stream` answer; `gone`, if given, hears when the client stops
   * reading it (it may also hear of an end the endpoint made itself).
   */
  events(headers?: Record<string, string>, gone?: () => void): EventSink;
  /** An answer the SDK built as a web `Response` (bearer challenges, the stateless fallback). */
  web(response: Response): void;
}

export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};
