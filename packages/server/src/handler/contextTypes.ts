import type { AskReach } from '../ask/askRoutes.ts';
import type {
  ClientCapabilities,
  ElicitationSchema,
  Era,
  HandlerInfo,
  Implementation,
  InputRequest,
} from '@parley/core';
import type { ResponseTypeOptions } from '@parley/schema';

import type { WarningSource } from '../ask/schemaWarnings.ts';
import type { PushChannel } from './pushChannel.ts';
import type { Flow, KeyedAsks } from '../flow/flow.ts';

/**
 * The types a handler's `Context` speaks in, beside the class itself: the public ones, and what
 * the round builds a context from.
 */

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

/** Every {@link LogLevel}, least severe first: what the modern envelope accepts, and their order. */
export const LOG_LEVELS: readonly LogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

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

/**
 * Answers to asks this client cannot answer (a tool's `askFallback`), by key; `fail(ask)`
 * throws the error such an ask fails with when the policy does not answer it.
 */
export type FallbackAnswers = (
  asks: KeyedAsks,
  fail: (ask: InputRequest) => never,
) => Promise<Record<string, unknown>>;

/** What pushing needs from the round: the request's facts, the budget, the waits. */
export interface PushScope {
  handler: HandlerInfo;
  request: RequestContext;
  /** How many times a bad answer to a pushed form is asked again. */
  maxReasks: number;
  /**
   * Whose `signal` is aborted when the client cancels the request: read when a push needs it
   * (hosts make the signal only then), never copied.
   */
  cancellation: { readonly signal: AbortSignal };
  elicitationTimeoutMs: number;
  /** Reports compatibility warnings about a schema this handler asks with. */
  lintSchema: (source: WarningSource, schema: ElicitationSchema) => void;
  /** Told each time a pushed form is asked again (telemetry counts re-asks), when it records. */
  reasked?: (() => void) | undefined;
  /**
   * How this round's asks reach the person (`ask/askRoutes.ts`): what may be asked, and whether
   * the App shows it. Absent: as the client declared, by its own forms.
   */
  reach?: AskReach | undefined;
}

/** What the server builds a `Context` from (internal). */
export interface ContextInit extends PushScope {
  /** The round's flow: what it came back with, and where `ctx.ask` replays from. */
  flow: Flow;
  push: PushChannel | undefined;
  /** A tool started by its handler: create the task, and get the channel its questions go on. */
  startTask?: (() => Promise<PushChannel>) | undefined;
  /**
   * Where the handler's log lines and progress go: the round's request itself, called as an
   * object (a transport's `log` may be a method).
   */
  channel: {
    log(level: LogLevel, data: unknown): Promise<void>;
    readonly progress:
      ((progress: number, total?: number, message?: string) => Promise<void>) | undefined;
  };
  /** Tools with an `askFallback`: what answers the asks this client cannot. */
  fallback?: FallbackAnswers | undefined;
}
