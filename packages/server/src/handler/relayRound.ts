import type { RequestContext } from './contextTypes.ts';

/**
 * A handler option for proxies and gateways (`relayRound`): a modern-era round answered by the
 * server behind them, passed through as the wire carries it. Parley opens no state of its own
 * for such a round: the client's `inputResponses` and `requestState` belong to that other
 * server, and its `InputRequiredResult` goes back with its own `requestState`, so nothing is
 * held between rounds and any replica can carry the next one.
 */

/** One modern-era round, as the client sent it. */
export interface RelayedRound {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /**
   * The request's params exactly as sent: `name` and `arguments` (tools, prompts) or `uri`
   * (resources), with `inputResponses`, `requestState` and `_meta` when the client sent them.
   */
  params: Record<string, unknown>;
  /** The facts of the request: version, what the client declared, who it is. */
  request: RequestContext;
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  /** Progress to the client's progress token; does nothing when it sent none. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
}

/**
 * Answers a modern-era round itself: the result to send as it is (a final result, or an
 * `InputRequiredResult` carrying another server's `requestState`). It runs inside the server's
 * middleware, which sees no flow (Parley opened none) and a tool's result as a `ToolResult`.
 * What it throws is answered as a handler's error would be (a `ProtocolError` keeps its code,
 * message and data).
 */
export type RoundRelay = (
  round: RelayedRound,
) => Record<string, unknown> | Promise<Record<string, unknown>>;
