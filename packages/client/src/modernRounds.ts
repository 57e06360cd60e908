import {
  isInputRequestMethod,
  isInputRequiredResult,
  isRecord,
  type InputRequest,
  type InputRequests,
  type InputRequiredResult,
  type InputResponses,
} from '@parley/core';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import type { CallState } from './callState.ts';
import type { InputAnswerer } from './inputAnswerer.ts';
import type { ClientTelemetry } from './telemetry.ts';
import type { RoundEvent } from './types.ts';

/**
 * The modern era's loop for one call: answer every request of a round (concurrently), retry the
 * same request on a new id with the answers and the exact `requestState`, until a final result
 * comes back or the round bound is reached. Every leg goes through the SDK's public manual
 * multi-round path (`allowInputRequired: true`), so the SDK hands each `input_required` result
 * back instead of fulfilling it.
 */

/** What the loop needs from the client. */
export interface ModernRoundsContext {
  answer: InputAnswerer;
  protocolVersion: string;
  emit(event: RoundEvent): void;
  /** Where the call's spans go (see `telemetry.ts`). */
  telemetry: ClientTelemetry;
}

/** A round that carries only state (load shedding) is retried after a short, growing pause. */
const STATE_ONLY_PAUSES_MS = [50, 100, 200, 250];

function invalid(reason: string): SdkError {
  return new SdkError(SdkErrorCode.InvalidResult, `Invalid input_required result: ${reason}.`);
}

/** The round's requests, checked: a malformed entry is the server's error, named as such. */
export function checkInputRequests(value: unknown): InputRequests {
  if (value === undefined) return {};
  if (!isRecord(value)) throw invalid('inputRequests must be an object');
  for (const [key, entry] of Object.entries(value)) {
    const method = isRecord(entry) ? entry.method : undefined;
    const params = isRecord(entry) ? entry.params : undefined;
    if (!isInputRequestMethod(method)) {
      throw invalid(
        `'${key}' is ${JSON.stringify(method)}, not elicitation/create, sampling/createMessage or roots/list`,
      );
    }
    if (params === undefined ? method !== 'roots/list' : !isRecord(params)) {
      throw invalid(`'${key}' (${String(method)}) needs object params`);
    }
  }
  return value as InputRequests;
}

export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Answer every request of a round at once; the first failure stops the others. */
async function answerRound(
  asked: InputRequests,
  state: CallState,
  round: number,
  context: ModernRoundsContext,
): Promise<InputResponses> {
  const siblings = new AbortController();
  const onAbort = (): void => siblings.abort(state.signal.reason);
  state.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const answered = await Promise.all(
      Object.entries(asked).map(async ([key, request]: [string, InputRequest]) => {
        try {
          const response = await context.answer(request, {
            era: 'modern',
            protocolVersion: context.protocolVersion,
            call: state.info,
            round,
            key,
            signal: siblings.signal,
          });
          return [key, response] as const;
        } catch (error) {
          siblings.abort(error);
          throw error;
        }
      }),
    );
    return Object.fromEntries(answered);
  } finally {
    state.signal.removeEventListener('abort', onAbort);
  }
}

/** The retry's params: this round's answers, and the state byte for byte. */
function retryParams(answered: InputResponses, requestState: string | undefined): RoundParams {
  return {
    ...(Object.keys(answered).length > 0 ? { inputResponses: answered } : {}),
    ...(requestState !== undefined ? { requestState } : {}),
  };
}

/** What a retry adds to the call's own params. */
export interface RoundParams {
  inputResponses?: InputResponses;
  requestState?: string;
  /** The request's trace context (`traceparent`), while telemetry records. */
  _meta?: Record<string, string>;
}

/** Sends the call again, on a new JSON-RPC id, with the round's answers and state added. */
export type RetryCall = (params: RoundParams) => Promise<unknown>;

/**
 * Drive one call from its first `input_required` result to the final result.
 *
 * @throws {RoundsExceededError} when the server still asks after `state.maxRounds` answered
 *   rounds; `data.lastResult` is the ask that was not answered.
 */
export async function driveModernRounds(
  state: CallState,
  first: InputRequiredResult,
  retry: RetryCall,
  context: ModernRoundsContext,
): Promise<unknown> {
  let ask = first;
  let stateOnlyStreak = 0;
  for (;;) {
    if (state.rounds >= state.maxRounds) throw state.roundsExceeded(ask);
    const asked = checkInputRequests(ask.inputRequests);
    state.rounds += 1;
    const round = state.rounds;
    let answered: InputResponses = {};
    if (Object.keys(asked).length > 0) {
      stateOnlyStreak = 0;
      answered = await answerRound(asked, state, round, context);
    } else {
      const delay =
        STATE_ONLY_PAUSES_MS[Math.min(stateOnlyStreak, STATE_ONLY_PAUSES_MS.length - 1)];
      stateOnlyStreak += 1;
      await pause(delay ?? 250, state.signal);
    }
    context.emit({
      era: 'modern',
      call: state.info,
      round,
      maxRounds: state.maxRounds,
      asked,
      answered,
      ...(ask.requestState !== undefined ? { requestState: ask.requestState } : {}),
    });
    const next = await retry(retryParams(answered, ask.requestState));
    if (!isInputRequiredResult(next)) return next;
    ask = next;
  }
}
