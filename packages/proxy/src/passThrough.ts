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
 * The `relayRound` of a relayed handler: passes the round through while the upstream speaks the
 * modern era; otherwise (`undefined`) the handler holds the upstream call (`relay.ts`).
 */
export function passThrough(deps: RelayDeps): RoundRelay {
  return async (round: RelayedRound) => {
    if (!deps.passThrough || deps.upstream.era !== 'modern') return undefined;
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
