import type { InputRequests, InputRequiredResult } from '@parley/core';
import {
  RequestStateError,
  type BoundRequest,
  type RequestBinding,
  type RequestStateSealer,
} from '@parley/state-sealing';

import { recordBytes, sealEnvelope, type FlowEnvelope } from './envelope.ts';
import { RoundFault } from './roundFault.ts';

/**
 * An ask on its way out: the next envelope sealed into its `requestState`, and the mark that
 * lets the modern reply write that token without serialising it.
 */

/**
 * An ask built by hand with the JSON `state` that `inputRequired` no longer takes would lose it
 * without a word (and its flow would loop): a fault that says what to use instead.
 */
export function refuseJsonState(ask: InputRequiredResult): void {
  if ((ask as { state?: unknown }).state !== undefined) {
    throw new RoundFault(
      'The handler returned a JSON `state`, which was removed: carry a string in requestState, or keep values with ctx.remember.',
    );
  }
}

/** The author's own state of an ask: the `requestState` string it returned, if any. */
export function authorStateOf(ask: InputRequiredResult): string | null {
  refuseJsonState(ask);
  if (ask.requestState === undefined) return null;
  if (typeof ask.requestState !== 'string') {
    throw new RoundFault('The handler returned a requestState that is not a string.');
  }
  return ask.requestState;
}

/**
 * The asks this module made, and their wire encodings: their `requestState` is a sealed token
 * (`ps1.` and base64url), text JSON needs no escaping for, which the modern reply writes without
 * having it serialised (`replyJson` in `modern/encode.ts`).
 */
const sealedAsks = new WeakSet<object>();

/** True for an ask result whose `requestState` is a token sealed here (see `sealedAsks`). */
export function isSealedAsk(result: object): boolean {
  return sealedAsks.has(result);
}

/** Mark a result as a sealed ask: one made here, or a copy of one with the same state. */
export function markSealedAsk(result: object): void {
  sealedAsks.add(result);
}

/**
 * Seal `envelope` into the ask as the wire carries it: what is asked (`sent`, when anything is),
 * the state, the `_meta`. At once where the sealer answers at once, else a promise.
 *
 * @throws {RoundFault} when the sealed state is over the size budget.
 */
export function sealAsk(
  envelope: FlowEnvelope,
  ask: InputRequiredResult,
  sent: InputRequests | undefined,
  sealer: RequestStateSealer,
  binding: RequestBinding | BoundRequest,
): InputRequiredResult | Promise<InputRequiredResult> {
  let sealed: string | Promise<string>;
  try {
    sealed = sealEnvelope(sealer, envelope, binding);
  } catch (error) {
    throw sealFailure(error, envelope);
  }
  return sealed instanceof Promise
    ? sealed.then(
        (requestState) => askResult(ask, sent, requestState),
        (error: unknown) => {
          throw sealFailure(error, envelope);
        },
      )
    : askResult(ask, sent, sealed);
}

function askResult(
  ask: InputRequiredResult,
  inputRequests: InputRequests | undefined,
  requestState: string,
): InputRequiredResult {
  const result: InputRequiredResult = {
    resultType: 'input_required',
    ...(inputRequests !== undefined ? { inputRequests } : {}),
    requestState,
    ...(ask._meta !== undefined ? { _meta: ask._meta } : {}),
  };
  markSealedAsk(result);
  return result;
}

/** How much of an envelope the flow's record of `ctx.ask` answers and `ctx.remember` values take. */
function recordShare(envelope: FlowEnvelope): string {
  const { answers, remembered } = recordBytes(envelope);
  if (answers === 0 && remembered === 0) return '';
  const parts = [
    ...(answers > 0
      ? [
          `the answers ctx.ask recorded (${Object.keys(envelope.answers).length}) take ${answers} bytes`,
        ]
      : []),
    ...(remembered > 0
      ? [
          `the values ctx.remember recorded (${Object.keys(envelope.remembered).length}) take ${remembered} bytes`,
        ]
      : []),
  ];
  return (
    ` Of the state, ${parts.join(' and ')}: every answer and remembered value of the flow ` +
    'travels on each round, so remember small things (an id, not a document).'
  );
}

/** A state over the size budget, as the author's fault it is; anything else as it is. */
function sealFailure(error: unknown, envelope: FlowEnvelope): unknown {
  if (error instanceof RequestStateError && error.reason === 'too-large') {
    return new RoundFault(
      `The state of this round is too large to send: ${error.message}.${recordShare(envelope)}`,
      { cause: error },
    );
  }
  return error;
}
