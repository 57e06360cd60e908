import { InvalidInputResponsesError, InvalidRequestStateError, isRecord } from '@parley/core';
import type { BoundRequest, RequestBinding } from '@parley/state-sealing';

import { openEnvelope } from './envelope.ts';
import type { Flow } from './flow.ts';
import type { FlowHandler, FlowRequest, FlowRuntime } from './flowRuntime.ts';
import { screenFlow, type OpenedState } from './screen.ts';
import { claimToken, type ReplayedOutcome } from './singleUse.ts';

/**
 * Opening a flow, before the handler runs: check that `inputResponses` is an object, open and
 * verify the sealed state (`envelope.ts`), claim its token under single use (`singleUse.ts`),
 * and keep only answers to what was asked, each checked against its question (`screen.ts`).
 */

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** The state the request came back with, opened and (under single use) claimed. */
function openState(
  runtime: FlowRuntime,
  req: FlowRequest,
  binding: RequestBinding | BoundRequest,
): OpenedState | ReplayedOutcome | Promise<OpenedState | ReplayedOutcome> {
  if (typeof req.requestState !== 'string') {
    throw new InvalidRequestStateError({ reason: 'not-a-string' });
  }
  const { singleUse } = runtime;
  const opened = openEnvelope(runtime.sealer, req.requestState, binding, singleUse !== undefined);
  return singleUse === undefined ? opened : claimToken(singleUse, opened, req);
}

/**
 * Open the round's flow: at once when opening answers at once (node:crypto, no single use),
 * else a promise; or, for a spent token within its replay window, the outcome to send again.
 * Throws what the promise would reject with.
 */
export function openFlow(
  runtime: FlowRuntime,
  target: FlowHandler,
  req: FlowRequest,
  binding: RequestBinding | BoundRequest,
): Flow | ReplayedOutcome | Promise<Flow | ReplayedOutcome> {
  const raw = req.inputResponses;
  if (raw !== undefined && !isRecord(raw)) {
    throw new InvalidInputResponsesError({
      reason: `inputResponses must be an object of answers by key, got ${describe(raw)}`,
    });
  }
  const state = req.requestState === undefined ? undefined : openState(runtime, req, binding);
  const site = { runtime, target, binding, maxReasks: target.maxReasks ?? runtime.maxReasks };
  return screenFlow(site, req, raw, state);
}
