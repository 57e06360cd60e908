import {
  askKeyOf,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitResult,
  type InputRequest,
  type Root,
} from '@parley/core';
import type { ClientOptions, InputContext } from '@parley/client';

/**
 * The two halves of one relayed ask: the upstream's request as the proxy's `Client` hands it
 * to a handler, put to the downstream person through the downstream flow (`ctx.askAll`), and
 * the answer that comes back, turned into what the `Client` sends upstream.
 */

/**
 * Puts one upstream ask to the downstream person; resolves with the flow's answer. `key` is the
 * upstream's own name for it, when it has one.
 */
export type Ask = (request: InputRequest, key?: string) => Promise<unknown>;

/**
 * The upstream's name for an ask: a modern round's `inputRequests` key, or the key a
 * handshake-era server sends in `_meta` (Parley's does). Not the JSON-RPC id a handshake-era
 * request otherwise has, a counter that means nothing to the person.
 */
function upstreamKey(request: InputRequest, ctx: InputContext): string | undefined {
  return ctx.era === 'modern' ? ctx.key : askKeyOf(request.params);
}

/** `ask`, told the upstream's key for the request. */
function keyed(ask: Ask, request: InputRequest, ctx: InputContext): Promise<unknown> {
  return ask(request, upstreamKey(request, ctx));
}

/** A form or URL elicitation's answer, from the flow's result back to the wire's. */
export function elicitResultOf(answer: unknown): ElicitResult {
  const { action, data } = answer as { action: ElicitResult['action']; data?: unknown };
  if (action !== 'accept') return { action };
  return typeof data === 'object' && data !== null && !Array.isArray(data)
    ? { action, content: data as Record<string, never> }
    : { action };
}

/**
 * The `Client` handlers that relay every upstream ask the downstream client can answer (as its
 * capabilities say): the upstream then sees the capabilities the downstream client declared.
 */
export function relayHandlers(
  ask: Ask,
  capabilities: ClientCapabilities,
): Pick<ClientOptions, 'elicitationHandler' | 'samplingHandler' | 'roots'> {
  return {
    ...(capabilities.elicitation === undefined
      ? {}
      : {
          elicitationHandler: async (_message, _type, params, ctx) =>
            elicitResultOf(await keyed(ask, { method: 'elicitation/create', params }, ctx)),
        }),
    ...(capabilities.sampling === undefined
      ? {}
      : {
          samplingHandler: async (_messages, params, ctx) =>
            (await keyed(
              ask,
              { method: 'sampling/createMessage', params },
              ctx,
            )) as CreateMessageResult,
        }),
    ...(capabilities.roots === undefined
      ? {}
      : {
          roots: async (ctx) =>
            (await keyed(ask, { method: 'roots/list', params: {} }, ctx)) as Root[],
        }),
  };
}
