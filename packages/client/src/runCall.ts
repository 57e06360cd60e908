import { CallState, type CallRegistry } from './callState.ts';
import type { Connection } from './connection.ts';
import { MAX_TIMEOUT_MS } from './options.ts';
import type { CallInfo } from './types.ts';

/** What a call sends through the SDK, given the connection and the per-request options. */
export type Send<T> = (
  connection: Connection,
  options: { signal: AbortSignal; timeout: number },
) => Promise<T>;

/** A call's bound, wait and cancellation, as resolved from its options. */
export interface CallLimits {
  maxRounds: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/**
 * Run one call on `connection` with its own {@link CallState}: registered while it runs (so its
 * rounds are found and counted), and settled by whichever comes first, the SDK's result or a
 * failure of Parley's own (round bound, handler error, timeout, cancellation, close).
 */
export async function runCall<T>(
  connection: Connection,
  calls: CallRegistry,
  info: CallInfo,
  limits: CallLimits,
  send: Send<T>,
): Promise<T> {
  const state = new CallState(info, limits.maxRounds, limits.timeoutMs, limits.signal);
  if (state.isSettled) return state.failed;
  calls.add(state);
  // Handshake era: the SDK would count a person's time to answer against the request, so the
  // client times the server itself (see CallState) and lifts the SDK's limit.
  const handshake = connection.era === 'handshake';
  if (handshake) state.startTimer();
  try {
    const request = send(connection, {
      signal: state.signal,
      timeout: handshake ? MAX_TIMEOUT_MS : limits.timeoutMs,
    });
    // Losing the race to a failure of our own is expected; that rejection is not news.
    request.catch(() => {});
    return await Promise.race([request, state.failed]);
  } finally {
    state.dispose();
    calls.delete(state);
  }
}
