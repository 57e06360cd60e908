import { InputRequiredToolResult, ToolResult, isInputRequiredResult, isRecord } from '@parley/core';
import type { MiddlewareContext } from '@parley/middleware';

import { RoundFault } from '../flow/roundFault.ts';
import type { RoundTarget } from '../handler/kinds/target.ts';
import type { RoundRelay } from '../handler/relayRound.ts';
import { roundFieldsOf, runInstalledMiddleware } from './middleware.ts';
import type { RoundRequest } from './request.ts';
import type { RoundRuntime } from './roundRuntime.ts';

/**
 * A modern round the handler's `relayRound` answers (a proxy's pass-through), inside the
 * server's middleware like any round. Parley opens no flow for it, so middleware sees no `flow`,
 * the client's `inputResponses` as sent (another server asked them), and no `requestState` of
 * the author's. A tool's result travels the chain as a `ToolResult`, as a handler's does; what
 * the chain resolves to goes out as it is when it is what the relay returned.
 */

/** What middleware sees of a relayed round. */
function contextOf(req: RoundRequest, target: RoundTarget): MiddlewareContext {
  const { inputResponses, requestState } = req;
  return {
    ...roundFieldsOf(req, target),
    flow: undefined,
    inputResponses: isRecord(inputResponses) ? (inputResponses as never) : null,
    requestState: null,
    isContinuation: inputResponses !== undefined || requestState !== undefined,
    resumesFlow: false,
    pushedRequests: 0,
    store: new Map(),
  };
}

/** The relay's answer, checked to be a result object. */
function resultOf(value: unknown, target: RoundTarget): Record<string, unknown> {
  if (isRecord(value)) return value;
  throw new RoundFault('Internal error', {
    cause: new TypeError(
      `relayRound of ${target.handler.kind} ${target.handler.name} returned no result object.`,
    ),
  });
}

/** A tool's wire result as middleware meets a handler's: a `ToolResult`. */
function asToolResult(result: Record<string, unknown>): ToolResult {
  return isInputRequiredResult(result)
    ? new InputRequiredToolResult(result)
    : new ToolResult(result as ConstructorParameters<typeof ToolResult>[0]);
}

/** Run `relayRound` for `req` (inside the middleware, when there is any): the result to send. */
export async function relayedRound(
  runtime: RoundRuntime,
  req: RoundRequest,
  target: RoundTarget,
  relayRound: RoundRelay,
): Promise<Record<string, unknown>> {
  const relay = async (): Promise<Record<string, unknown>> =>
    resultOf(
      await relayRound({
        method: req.method,
        params: req.params,
        request: req.request,
        signal: req.signal,
        reportProgress: async (progress, total, message) => {
          await req.progress?.(progress, total, message);
        },
      }),
      target,
    );
  if (runtime.middleware.length === 0) return relay();
  const tool = req.method === 'tools/call';
  let relayed: Record<string, unknown> | undefined;
  let passed: unknown;
  const value = await runInstalledMiddleware(
    runtime.middleware,
    contextOf(req, target),
    async () => {
      relayed = await relay();
      passed = tool ? asToolResult(relayed) : relayed;
      return passed;
    },
  );
  // What the relay returned, untouched, unless a middleware answered with something else.
  if (value === passed && relayed !== undefined) return relayed;
  if (!tool) return resultOf(value, target);
  return (target.normalise(value) as ToolResult).toJSON() as unknown as Record<string, unknown>;
}
