import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  Root,
} from '@parley/core';
import type { ClientOptions } from '@parley/client';

/**
 * The two halves of one relayed ask: the upstream's request as the proxy's `Client` hands it
 * to a handler, put to the downstream person through the downstream flow (`ctx.askAll`), and
 * the answer that comes back, turned into what the `Client` sends upstream.
 */

/** Puts one upstream ask to the downstream person; resolves with the flow's answer. */
export type Ask = (request: InputRequest) => Promise<unknown>;

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
          elicitationHandler: async (_message, _type, params) =>
            elicitResultOf(await ask({ method: 'elicitation/create', params })),
        }),
    ...(capabilities.sampling === undefined
      ? {}
      : {
          samplingHandler: async (_messages, params) =>
            (await ask({ method: 'sampling/createMessage', params })) as CreateMessageResult,
        }),
    ...(capabilities.roots === undefined
      ? {}
      : { roots: async () => (await ask({ method: 'roots/list', params: {} })) as Root[] }),
  };
}
