import {
  MODERN_PROTOCOL_VERSION,
  UnsupportedProtocolVersionError,
  checkOptionKeys,
  optionKeys,
} from '@parley/core';

import type { Connection } from './connection.ts';
import { toParleyError } from './errors.ts';
import { resolveCallOptions, type ResolvedOptions } from './options.ts';
import { observe } from './runCall.ts';
import { createdTaskOf } from './tasks/createdTasks.ts';
import type { CallProgress, SingleRound, SingleRoundOptions } from './types.ts';

/**
 * One round of a modern-era call, sent as given and returned as the server answered it:
 * `inputResponses` and `requestState` go out byte for byte, and an `InputRequiredResult` comes
 * back to the caller instead of being answered. It is what a proxy or gateway needs to pass a
 * call through to the client behind it without holding anything between rounds: the server's
 * own `requestState` travels, so any replica of the proxy can carry the next round.
 */

/** The one round needs a modern-era connection: the handshake era has no rounds to pass. */
function handshakeConnection(label: string, protocolVersion: string): never {
  const error = new UnsupportedProtocolVersionError(
    { supported: [protocolVersion], requested: MODERN_PROTOCOL_VERSION },
    {},
  );
  error.message =
    `sendRound: a single round is a modern-era request (MCP ${MODERN_PROTOCOL_VERSION}), but ` +
    `${label} speaks the handshake era (MCP ${protocolVersion}); use callTool, getPrompt or ` +
    `readResource, which answer the server's pushed requests.`;
  throw error;
}

/** Sends `round` once on `connection`; the server's result, whatever its `resultType`. */
export async function sendSingleRound(
  connection: Connection,
  label: string,
  round: SingleRound,
  limits: SingleRoundLimits,
): Promise<Record<string, unknown>> {
  if (connection.era !== 'modern') handshakeConnection(label, connection.protocolVersion);
  const { sdk } = connection;
  const options = {
    allowInputRequired: true as const,
    timeout: limits.timeoutMs,
    ...(limits.signal === undefined ? {} : { signal: limits.signal }),
    ...(limits.onProgress === undefined ? {} : { onprogress: limits.onProgress }),
  };
  try {
    switch (round.method) {
      case 'tools/call': {
        const result = await sdk.callTool(round.params, options);
        // A task comes back as the server sent it (the client takes it off the wire for the SDK).
        return createdTaskOf(result)?.task ?? (result as Record<string, unknown>);
      }
      case 'prompts/get':
        return (await sdk.getPrompt(round.params, options)) as Record<string, unknown>;
      case 'resources/read':
        // A round that may ask is never served from (or kept in) the SDK's response cache.
        return (await sdk.readResource(round.params, {
          ...options,
          cacheMode: 'bypass',
        })) as Record<string, unknown>;
    }
  } catch (error) {
    throw toParleyError(error);
  }
}

/** A round a caller gave: one of the three methods, with a string `name` (or `uri`). */
export function checkSingleRound(round: unknown): asserts round is SingleRound {
  const { method, params } = (round ?? {}) as { method?: unknown; params?: unknown };
  const named =
    typeof params === 'object' &&
    params !== null &&
    (method === 'resources/read'
      ? typeof (params as { uri?: unknown }).uri === 'string'
      : typeof (params as { name?: unknown }).name === 'string');
  if (!['tools/call', 'prompts/get', 'resources/read'].includes(method as string) || !named) {
    throw new TypeError(
      "sendRound: give { method: 'tools/call' | 'prompts/get', params: { name, … } } or " +
        "{ method: 'resources/read', params: { uri, … } }.",
    );
  }
}

/** A round's wait, cancellation and progress listener, as resolved from its options. */
interface SingleRoundLimits {
  signal: AbortSignal | undefined;
  timeoutMs: number;
  onProgress: ((progress: CallProgress) => void) | undefined;
}

const SINGLE_ROUND_OPTIONS = optionKeys<SingleRoundOptions>()([
  'signal',
  'timeoutMs',
  'onProgress',
]);

/** `sendRound`'s options, checked (one round: no `maxRounds`, no `onTask`) and resolved. */
export function singleRoundLimits(
  options: SingleRoundOptions,
  defaults: ResolvedOptions,
): SingleRoundLimits {
  checkOptionKeys('sendRound', 'options', options, SINGLE_ROUND_OPTIONS);
  const { signal, timeoutMs, onProgress } = resolveCallOptions('sendRound', options, defaults);
  return {
    signal,
    timeoutMs,
    onProgress: onProgress === undefined ? undefined : observe(onProgress),
  };
}
