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

import { askInfoOf } from '../ask/builders.ts';
import { elicitRequestFor } from '../ask/versionSchemas.ts';
import { isEmpty } from '../utils/records.ts';

/**
 * An ask on its way out, before the flow seals it: only what the client can answer, in the
 * schema vocabulary of its protocol version.
 */

/** What of an ask goes to the client. */
export interface AnswerableAsk {
  /** The requests the client can answer, as the handler built them (what the flow records). */
  kept: InputRequests;
  /**
   * The same, rewritten for the client's protocol version (what the wire carries); `undefined`
   * when nothing is left to ask (a round that only carries state).
   */
  sent: InputRequests | undefined;
}

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

/**
 * What of `ask` this client gets: optional asks it cannot answer are left out, required ones
 * fail the round, and elicitations are rewritten for its protocol version.
 *
 * @throws {UnsupportedCapabilityError} when a required ask needs an undeclared capability (or
 *   one the client's version cannot express), or when every ask was optional and none is left.
 */
export function answerableAsk(
  ask: InputRequiredResult,
  capabilities: ClientCapabilities,
  protocolVersion: string,
): AnswerableAsk {
  const requests = ask.inputRequests ?? {};
  const { kept, count, unanswerable } = keepAnswerable(requests, capabilities);
  const nothingLeft = count === 0 && !isEmpty(requests);
  const missing =
    unanswerable.length === 0 && !nothingLeft
      ? undefined
      : missingCapabilities(capabilities, nothingLeft ? Object.values(requests) : unanswerable);
  if (missing !== undefined) {
    throw new UnsupportedCapabilityError(
      { feature: clientFeatureOf(missing), requiredCapabilities: missing },
      {
        message: `The client did not declare the capabilities this request needs: ${JSON.stringify(missing)}`,
      },
    );
  }
  if (count === 0) return { kept, sent: undefined };
  const sent: InputRequests = {};
  for (const key in kept) {
    const request = kept[key] as InputRequest;
    sent[key] =
      request.method === 'elicitation/create'
        ? elicitRequestFor(request, protocolVersion)
        : request;
  }
  return { kept, sent };
}
