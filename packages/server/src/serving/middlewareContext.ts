import type { HandlerInfo, MiddlewareContext } from '@parley/middleware';

import type { OpenedRound } from './roundRunner.ts';

/** A request's params as middleware sees them: without the protocol's own fields. */
export function middlewareParams(params: unknown): Record<string, unknown> {
  const {
    _meta: _envelope,
    inputResponses: _answers,
    requestState: _state,
    ...rest
  } = (params ?? {}) as Record<string, unknown>;
  return rest;
}

/** The middleware context of a round, built only after its state was opened and verified. */
export function roundMiddlewareContext<TParams extends object>(
  round: OpenedRound,
  handler: HandlerInfo,
  params: TParams,
): MiddlewareContext<TParams> {
  const { context } = round;
  return {
    method: context.requestContext.method,
    params,
    era: context.era,
    protocolVersion: context.requestContext.protocolVersion,
    principal: context.requestContext.principal,
    handler,
    parleyContext: context,
    flow: context.flow,
    isContinuation: context.isContinuation,
    resumesFlow: round.resumesFlow,
    get pushedRequests() {
      return round.pushedRequests();
    },
    store: new Map(),
  };
}
