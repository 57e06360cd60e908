import { isInputRequiredResult } from '@parley/core';

import { CallState, type CallRegistry } from './callState.ts';
import type { Connection } from './connection.ts';
import { driveModernRounds, type ModernRoundsContext, type RoundParams } from './modernRounds.ts';
import { MAX_TIMEOUT_MS } from './options.ts';
import { createdTaskOf } from './tasks/createdTasks.ts';
import { driveTask } from './tasks/driveTask.ts';
import type { CallInfo, CallProgress, TaskHandle } from './types.ts';

/** A listener whose exceptions cannot break the call it observes. */
export function observe(
  listener: (progress: CallProgress) => void,
): (progress: CallProgress) => void {
  return (progress) => {
    try {
      listener({
        progress: progress.progress,
        ...(progress.total === undefined ? {} : { total: progress.total }),
        ...(progress.message === undefined ? {} : { message: progress.message }),
      });
    } catch {
      // Ignored on purpose.
    }
  };
}

/** The per-request options every leg of a call is sent with. */
export interface LegOptions {
  signal: AbortSignal;
  timeout: number;
  /** The SDK's manual multi-round path: an `input_required` result is handed back to Parley. */
  allowInputRequired: true;
  /** The caller's progress listener (the SDK then sends a progress token). */
  onprogress?: (progress: CallProgress) => void;
}

/**
 * What a call sends through the SDK, given the connection, what a retry adds to the params
 * (nothing on the first leg) and the per-request options.
 */
export type Send<T> = (
  connection: Connection,
  round: RoundParams,
  options: LegOptions,
) => Promise<T>;

/** A call's bound, wait and cancellation, as resolved from its options. */
export interface CallLimits {
  maxRounds: number;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  onTask?: ((task: TaskHandle) => void) | undefined;
  onProgress?: ((progress: CallProgress) => void) | undefined;
}

/**
 * Run one call on `connection` with its own {@link CallState}: registered while it runs (so its
 * rounds are found and counted), and settled by whichever comes first, the final result or a
 * failure of Parley's own (round bound, handler error, timeout, cancellation, close). On a
 * modern connection an `input_required` answer is driven round by round to the final result;
 * a `tools/call` answered with a task (after such rounds, or at once) is driven to its end.
 */
export async function runCall<T>(
  connection: Connection,
  calls: CallRegistry,
  info: CallInfo,
  limits: CallLimits,
  rounds: ModernRoundsContext,
  send: Send<T>,
): Promise<T> {
  const state = new CallState(info, limits.maxRounds, limits.timeoutMs, limits.signal);
  if (state.isSettled) return state.failed;
  const trace = rounds.telemetry.call(info, connection.era);
  state.trace = trace;
  calls.add(state);
  // Handshake era: the SDK would count a person's time to answer against the request, so the
  // client times the server itself (see CallState) and lifts the SDK's limit.
  const handshake = connection.era === 'handshake';
  if (handshake) state.startTimer();
  const options: LegOptions = {
    signal: state.signal,
    timeout: handshake ? MAX_TIMEOUT_MS : limits.timeoutMs,
    allowInputRequired: true,
    ...(limits.onProgress === undefined ? {} : { onprogress: observe(limits.onProgress) }),
  };
  // Each request of the call in a span of its own, its context in the request's `_meta`.
  const sendLeg = (round: RoundParams): Promise<T> =>
    trace === undefined
      ? send(connection, round, options)
      : trace.leg((meta) =>
          send(connection, meta === undefined ? round : { ...round, _meta: meta }, options),
        );
  let failure: unknown;
  try {
    const first = sendLeg({});
    const answered = handshake
      ? first
      : first.then(async (value): Promise<T> =>
          isInputRequiredResult(value)
            ? ((await driveModernRounds(state, value, sendLeg, rounds)) as T)
            : value,
        );
    const request = answered.then(async (value): Promise<T> => {
      const created = createdTaskOf(value);
      if (created === undefined) return value;
      return (await driveTask(created, {
        connection,
        state,
        answer: rounds.answer,
        emit: rounds.emit,
        onTask: limits.onTask,
        timeoutMs: limits.timeoutMs,
      })) as T;
    });
    // Losing the race to a failure of our own is expected; that rejection is not news.
    request.catch(() => {});
    return await Promise.race([request, state.failed]);
  } catch (error) {
    failure = error ?? new Error('call failed');
    throw error;
  } finally {
    trace?.end(Math.max(1, state.rounds), failure);
    state.dispose();
    calls.delete(state);
  }
}
