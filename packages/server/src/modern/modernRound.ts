import { isRecord } from '@parley/core';

import { LOG_LEVELS, type LogLevel, type RequestContext } from '../handler/contextTypes.ts';
import type { RoundMethod } from '../round/targets.ts';
import type { RoundRequest } from '../round/request.ts';
import type { RequestTrace } from '../telemetry/requestTrace.ts';
import type { Envelope } from './envelope.ts';
import type { ModernTransport } from './messages.ts';

/**
 * One modern round as the pipeline gets it. A class, not an object literal: a literal with a
 * getter (the signal, read through so it is made only when something asks) is built slowly and
 * lands in dictionary mode, and this is made for every round.
 */
export class ModernRound implements RoundRequest {
  readonly method: RoundMethod;
  readonly params: Record<string, unknown>;
  readonly inputResponses: unknown;
  readonly requestState: unknown;
  readonly request: RequestContext;
  readonly progress: RoundRequest['progress'];
  readonly push: undefined = undefined;
  readonly projectToolResult: RoundRequest['projectToolResult'] = appendTextFallback;
  readonly trace: RequestTrace | undefined;
  readonly #envelope: Envelope;
  readonly #transport: ModernTransport;

  /** `params` carries the round's answers and state: `inputResponses`, `requestState`. */
  constructor(
    method: RoundMethod,
    params: Record<string, unknown>,
    request: RequestContext,
    envelope: Envelope,
    transport: ModernTransport,
    trace: RequestTrace | undefined,
  ) {
    this.method = method;
    this.trace = trace;
    this.params = params;
    this.inputResponses = params.inputResponses;
    this.requestState = params.requestState;
    this.request = request;
    this.#envelope = envelope;
    this.#transport = transport;
    const token = envelope.progressToken;
    // A function only when the request carries a progress token (few do).
    this.progress =
      token === undefined
        ? undefined
        : async (progress, total, message) =>
            transport.notify({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: {
                progressToken: token,
                progress,
                ...(total !== undefined ? { total } : {}),
                ...(message !== undefined ? { message } : {}),
              },
            });
  }

  get signal(): AbortSignal {
    return this.#transport.signal;
  }

  /**
   * A method, not a closure made per round: a closure over the transport, kept on every
   * round's request, made V8 keep each request's whole object graph (request, response, body)
   * through young-generation collections, which then cost more than the rest of the round.
   */
  async log(level: LogLevel, data: unknown): Promise<void> {
    const wanted = this.#envelope.logLevel;
    if (wanted === undefined || LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(wanted)) return;
    this.#transport.notify({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level, data },
    });
  }
}

/**
 * SEP-2106 on the modern wire: structured content is sent as it is; one that is not an object
 * also gets its JSON as text, for clients that read only `content`.
 */
function appendTextFallback<T extends { content: unknown[]; structuredContent?: unknown }>(
  result: T,
): T {
  const structured = result.structuredContent;
  if (structured === undefined || (isRecord(structured) && !Array.isArray(structured)))
    return result;
  const hasText = result.content.some((block) => isRecord(block) && block.type === 'text');
  if (hasText) return result;
  return {
    ...result,
    content: [...result.content, { type: 'text', text: JSON.stringify(structured) }],
  };
}
