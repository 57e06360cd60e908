import type { RelayedRound, RoundRelay } from '@parley/server';
import type { SingleRound } from '@parley/client';

import { upstreamError } from './errors.ts';
import type { RelayDeps } from './relay.ts';

/**
 * A modern client in front of a modern upstream: each round passes through as the wire carries
 * it. The client's arguments, `inputResponses` and `requestState` go upstream untouched, and
 * the upstream's answer comes back as it is, an `InputRequiredResult` with the upstream's own
 * `requestState` included. The proxy holds nothing between rounds, so the next round may reach
 * any proxy process, or one restarted since.
 */

/** The params the upstream gets: the round's own, without the downstream request's `_meta`. */
function upstreamParams(params: Record<string, unknown>): Record<string, unknown> {
  const { _meta: _downstreamMeta, ...own } = params;
  return own;
}

/**
 * The `relayRound` option of a relayed handler, when the upstream speaks the modern era (its
 * listing connection is open by the time anything registers): the round passes through. Without
 * it, the handler holds the upstream call (`relay.ts`).
 */
export function passThroughOption(deps: RelayDeps): { relayRound?: RoundRelay } {
  return deps.upstream.era === 'modern' ? { relayRound: passThrough(deps) } : {};
}

function passThrough(deps: RelayDeps): RoundRelay {
  return async (round: RelayedRound) => {
    // The server checked the round's `name` or `uri` before relaying it.
    const params = upstreamParams(round.params);
    const request = { method: round.method, params } as unknown as SingleRound;
    try {
      return await deps.upstream.passThrough(round.request.clientCapabilities, (client) =>
        client.sendRound(request, {
          signal: round.signal,
          onProgress: ({ progress, total, message }) => {
            round.reportProgress(progress, total, message).catch(() => {});
          },
        }),
      );
    } catch (error) {
      throw upstreamError(error);
    }
  };
}
