import {
  InvalidRequestStateError,
  clientFeatureOf,
  ParleyError,
  UnsupportedCapabilityError,
  missingCapabilities,
  supportsRequest,
  type ClientCapabilities,
  type InputRequest,
  type InputRequests,
  type InputRequiredResult,
  type InputResponses,
} from '@parley/core';
import {
  RequestStateError,
  type RequestBinding,
  type RequestStateSealer,
} from '@parley/state-sealing';

import { askInfoOf } from './asks.ts';
import type { Flow } from './context.ts';
import { newFlowId, openEnvelope, sealEnvelope } from './requestStateEnvelope.ts';

/**
 * One round of a modern multi-round request, around the handler: open the state that came back,
 * and on the way out keep only the asks the client can answer and seal the state again.
 */

/** What a round starts from. */
export interface RoundStart {
  flow: Flow;
  requestState: string | null;
}

/**
 * Open the `requestState` a retry carried (if any) and work out which flow and round this is.
 * A round with answers but no state is a continuation of a flow that carried none: it gets a
 * new flow id, and counts as round 2.
 *
 * @throws {InvalidRequestStateError} for a token that does not open (tampered, expired, foreign…).
 */
export async function startRound(
  sealer: RequestStateSealer,
  rawState: unknown,
  inputResponses: InputResponses | null,
  binding: RequestBinding,
  now: () => number,
): Promise<RoundStart> {
  if (rawState === undefined) {
    return {
      flow: { id: newFlowId(), round: inputResponses === null ? 1 : 2, startedAt: now() },
      requestState: null,
    };
  }
  if (typeof rawState !== 'string') throw new InvalidRequestStateError({ reason: 'not-a-string' });
  const envelope = await openEnvelope(sealer, rawState, binding);
  return {
    flow: { id: envelope.flowId, round: envelope.round + 1, startedAt: envelope.startedAt },
    requestState: envelope.state,
  };
}

/** Split asks into those the client declared it can answer and the rest. */
function keepAnswerable(
  requests: InputRequests,
  declared: ClientCapabilities,
): { kept: InputRequests; unanswerable: InputRequest[] } {
  const kept: InputRequests = {};
  const unanswerable: InputRequest[] = [];
  for (const [key, request] of Object.entries(requests)) {
    if (supportsRequest(declared, request)) kept[key] = request;
    else if (askInfoOf(request)?.optional !== true) unanswerable.push(request);
  }
  return { kept, unanswerable };
}

/**
 * The wire form of an ask on a modern request: optional asks the client cannot answer are left
 * out, required ones fail the round with `-32021`, and the state is sealed together with the
 * flow identity (always, so the next round knows its flow even when the author keeps no state).
 *
 * @throws {UnsupportedCapabilityError} when a required ask needs an undeclared capability, or
 *   when every ask was optional and none is left.
 */
export async function finishAsk(
  sealer: RequestStateSealer,
  ask: InputRequiredResult,
  declared: ClientCapabilities,
  flow: Flow,
  binding: RequestBinding,
): Promise<InputRequiredResult> {
  const requests = ask.inputRequests ?? {};
  const { kept, unanswerable } = keepAnswerable(requests, declared);
  const nothingLeft = Object.keys(kept).length === 0 && Object.keys(requests).length > 0;
  const missing = missingCapabilities(
    declared,
    nothingLeft ? Object.values(requests) : unanswerable,
  );
  if (missing !== undefined) {
    throw new UnsupportedCapabilityError(
      { feature: clientFeatureOf(missing), requiredCapabilities: missing },
      {
        message: `The client did not declare the capabilities this request needs: ${JSON.stringify(missing)}`,
      },
    );
  }
  let requestState: string;
  try {
    requestState = await sealEnvelope(
      sealer,
      {
        state: ask.requestState ?? null,
        flowId: flow.id,
        round: flow.round,
        startedAt: flow.startedAt,
      },
      binding,
    );
  } catch (error) {
    if (error instanceof RequestStateError && error.reason === 'too-large') {
      throw new ParleyError(
        'internal',
        `The requestState returned by this handler is too large to send: ${error.message}`,
        { cause: error },
      );
    }
    throw error;
  }
  return {
    resultType: 'input_required',
    ...(Object.keys(kept).length > 0 ? { inputRequests: kept } : {}),
    requestState,
    ...(ask._meta !== undefined ? { _meta: ask._meta } : {}),
  };
}
