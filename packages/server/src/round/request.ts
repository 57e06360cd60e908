import type { CallToolResult, JsonRpcErrorObject } from '@parley/core';

import type { AskReach } from '../ask/askRoutes.ts';
import type { LogLevel, RequestContext } from '../handler/contextTypes.ts';
import type { PushChannel } from '../handler/pushChannel.ts';
import type { RequestTrace } from '../telemetry/requestTrace.ts';
import type { RoundMethod } from './targets.ts';

/**
 * What a transport hands the round pipeline, and what it gets back. The modern dispatcher and
 * the SDK's handshake sessions both speak this, so the pipeline never sees either.
 */

/** One round, as a transport received it. */
export interface RoundRequest {
  method: RoundMethod;
  /**
   * The request's params, read by key: `name` (a string) and `arguments` for tools and prompts,
   * `uri` (a string) for resources. They may still hold the protocol's own fields (`_meta`,
   * `inputResponses`, `requestState`), which nothing reads from here.
   */
  params: Record<string, unknown>;
  /** `inputResponses` exactly as it came (not yet checked), or `undefined`. */
  inputResponses: unknown;
  /** `requestState` exactly as it came, or `undefined`. */
  requestState: unknown;
  /** The facts of the request: version, era, what the client declared, who it is. */
  request: RequestContext;
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  log(level: LogLevel, data: unknown): Promise<void>;
  /** Present when the request carries a progress token. */
  progress: ((progress: number, total?: number, message?: string) => Promise<void>) | undefined;
  /** Handshake era: the server-initiated requests of this call. */
  push: PushChannel | undefined;
  /**
   * A tool that starts its task from its handler (`task: { start: 'by-handler' }`):
   * `ctx.startTask()` creates the task and resolves with the channel its questions go on.
   */
  startTask?: () => Promise<PushChannel>;
  /** The request's span and measurements, while telemetry records them. */
  readonly trace?: RequestTrace | undefined;
  /**
   * How this round's asks reach the person, when the transport already knows (an answer that
   * came back through the App stays on the App route); else the round works it out.
   */
  reach?: AskReach;
  /** How a final tool result is shaped for this connection's wire (SEP-2106 projection). */
  projectToolResult(result: CallToolResult, outputJsonSchema: unknown): CallToolResult;
}

/** How a round ends on the wire. */
export type RoundReply =
  /** A result: final, or an ask (`resultType: 'input_required'`, state sealed). */
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; error: JsonRpcErrorObject };
