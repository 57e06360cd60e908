import {
  UnsupportedCapabilityError,
  clientFeatureOf,
  missingCapabilities,
  supportsRequest,
  type ClientCapabilities,
  type InputRequest,
  type InputRequests,
  type InputRequiredResult,
} from '@parley/core';
import {
  RequestStateError,
  type BoundRequest,
  type RequestBinding,
  type RequestStateSealer,
} from '@parley/state-sealing';

import { askInfoOf } from '../ask/builders.ts';
import { recordAsks } from '../ask/asked.ts';
import { RoundFault } from './errors.ts';
import { isEmpty } from '../utils/records.ts';
import { recordBytes, sealEnvelope, type AuthorState, type RoundEnvelope } from './envelope.ts';
import { elicitRequestFor } from '../ask/versionSchemas.ts';

/**
 * An ask on its way out: only what the client can answer, in the schema vocabulary of its
 * protocol version, with the state sealed together with the flow and what was asked.
 */

/** Split asks into those the client declared it can answer and the required rest. */
function keepAnswerable(
  requests: InputRequests,
  declared: ClientCapabilities,
): { kept: InputRequests; count: number; unanswerable: InputRequest[] } {
  const kept: InputRequests = {};
  const unanswerable: InputRequest[] = [];
  let count = 0;
  for (const key in requests) {
    if (!Object.hasOwn(requests, key)) continue;
    const request = requests[key] as InputRequest;
    if (supportsRequest(declared, request)) {
      kept[key] = request;
      count++;
    } else if (askInfoOf(request)?.optional !== true) unanswerable.push(request);
  }
  return { kept, count, unanswerable };
}

/** The author's state of an ask, in the form it gave it. */
export function authorStateOf(ask: InputRequiredResult): AuthorState | null {
  if (ask.requestState !== undefined && ask.state !== undefined) {
    throw new RoundFault(
      'The handler returned both requestState (a string) and state (a JSON value); return one.',
    );
  }
  if (ask.state !== undefined) return { form: 'json', value: ask.state };
  if (ask.requestState !== undefined) {
    if (typeof ask.requestState !== 'string') {
      throw new RoundFault('The handler returned a requestState that is not a string.');
    }
    return { form: 'string', value: ask.requestState };
  }
  return null;
}

/** How much of an envelope the flow's record of `ctx.ask` answers and `ctx.remember` values take. */
function recordShare(envelope: RoundEnvelope): string {
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

/** Where an ask goes: the client's facts, and the flow the state continues. */
export interface AskDestination {
  capabilities: ClientCapabilities;
  protocolVersion: string;
  sealer: RequestStateSealer;
  binding: RequestBinding | BoundRequest;
  /**
   * The next envelope. `asked` is left out for a new ask (it records what this ask asks); a
   * round that asks its previous questions again keeps their record.
   */
  envelope: Omit<RoundEnvelope, 'asked'> & { asked?: RoundEnvelope['asked'] };
}

/**
 * The wire form of an ask: optional asks the client cannot answer are left out, required ones
 * fail the round, elicitations are rewritten for the client's protocol version, and the state
 * is sealed with the flow identity and a record of what was asked (always, so the next round
 * knows its flow and what it may accept even when the author keeps no state).
 *
 * @throws {UnsupportedCapabilityError} when a required ask needs an undeclared capability (or
 *   one the client's version cannot express), or when every ask was optional and none is left.
 * @throws {RoundFault} when the sealed state is over the size budget.
 */
export function finishAsk(
  ask: InputRequiredResult,
  destination: AskDestination,
): InputRequiredResult | Promise<InputRequiredResult> {
  const requests = ask.inputRequests ?? {};
  const { kept, count, unanswerable } = keepAnswerable(requests, destination.capabilities);
  const nothingLeft = count === 0 && !isEmpty(requests);
  const missing =
    unanswerable.length === 0 && !nothingLeft
      ? undefined
      : missingCapabilities(
          destination.capabilities,
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
  const sent: InputRequests = {};
  for (const key in kept) {
    const request = kept[key] as InputRequest;
    sent[key] =
      request.method === 'elicitation/create'
        ? elicitRequestFor(request, destination.protocolVersion)
        : request;
  }
  // Field by field, not `{ ...destination.envelope, asked }`: V8 adds a property to a spread
  // copy through its slow path, and this runs on every asking round.
  const next = destination.envelope;
  const envelope: RoundEnvelope = {
    flowId: next.flowId,
    round: next.round,
    startedAt: next.startedAt,
    state: next.state,
    asked: next.asked ?? recordAsks(kept),
    carried: next.carried,
    reasks: next.reasks,
    answers: next.answers,
    remembered: next.remembered,
    trace: next.trace,
    askedAt: next.askedAt,
  };
  let sealed: string | Promise<string>;
  try {
    sealed = sealEnvelope(destination.sealer, envelope, destination.binding);
  } catch (error) {
    throw sealFailure(error, envelope);
  }
  const asked = count > 0 ? sent : undefined;
  return sealed instanceof Promise
    ? sealed.then(
        (requestState) => askResult(ask, asked, requestState),
        (error: unknown) => {
          throw sealFailure(error, envelope);
        },
      )
    : askResult(ask, asked, sealed);
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

/** The ask as the wire carries it: what is asked (when anything is), the state, the `_meta`. */
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

/** A state over the size budget, as the author's fault it is; anything else as it is. */
function sealFailure(error: unknown, envelope: RoundEnvelope): unknown {
  if (error instanceof RequestStateError && error.reason === 'too-large') {
    return new RoundFault(
      `The state of this round is too large to send: ${error.message}.${recordShare(envelope)}`,
      { cause: error },
    );
  }
  return error;
}
