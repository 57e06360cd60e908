import type { ClientCapabilities, Era, Implementation } from '@parley/core';
import type { ResponseTypeOptions } from '@parley/schema';

/** The public types a handler's {@link Context} speaks in, beside the class itself. */

/** The facts of the request being served. */
export interface RequestContext {
  /** The negotiated (handshake era) or per-request (modern era) protocol version. */
  protocolVersion: string;
  era: Era;
  /** `tools/call`, `prompts/get` or `resources/read`. */
  method: string;
  /** The capabilities the client declared (on the session, or on this very request). */
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The HTTP session, on handshake-era HTTP connections. */
  sessionId: string | undefined;
  /** The authenticated principal, when the transport verified one. */
  principal: string | undefined;
}

/** Logging levels, as MCP names them. */
export type LogLevel =
  'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Options of `ctx.elicit()`. */
export interface ElicitOptions extends ResponseTypeOptions {
  /** How long to wait for the person to answer. Default: the server's `elicitationTimeoutMs` (10 minutes). */
  timeoutMs?: number;
}

/** What `ctx.elicitUrl()` resolves to when the user agreed to open the URL. */
export interface UrlElicitation {
  elicitationId: string;
  /** Tell the client the out-of-band step finished (`notifications/elicitation/complete`). */
  complete(): Promise<void>;
}

/** Options of `ctx.elicit(ask)` and `ctx.ask(key, ask)` on the handshake era. */
export interface WaitOptions {
  /** How long to wait for the answer. Default: the server's `elicitationTimeoutMs` (10 minutes). */
  timeoutMs?: number;
}
