import {
  InvalidAnswerError,
  JSON_RPC_ERROR_CODES,
  ParleyError,
  SessionClosedError,
  type JsonRpcErrorObject,
} from '@parley/core';
import type { BoundRequest, RequestBinding } from '@parley/state-sealing';

import { reachOf, type AskReach } from '../ask/askRoutes.ts';
import { Flow } from '../flow/flow.ts';
import type { FlowRuntime } from '../flow/flowRuntime.ts';
import { openFlow } from '../flow/open.ts';
import { RoundFault } from '../flow/roundFault.ts';
import type { RoundTarget } from '../handler/kinds/target.ts';
import { appAnswerRound, isAppAnswer } from './appRoute.ts';
import { isProtocolError, mapFailure, toolError, type FailureSite } from './errors.ts';
import { limitProblem } from './limits.ts';
import { relayedRound } from './relayedRound.ts';
import type { RoundReply, RoundRequest } from './request.ts';
import type { RoundRuntime } from './roundRuntime.ts';
import { runRound } from './runRound.ts';
import { resolveTarget } from './targets.ts';

/**
 * The round: one `tools/call`, `prompts/get` or `resources/read`, from the request a transport
 * received to the reply it sends. Every kind of handler and both eras take this one path:
 *
 * 1. resolve the handler, bound the arguments' size, check them against its schema;
 * 2. open the flow (`flow/open.ts`): check `inputResponses` is an object, open and verify the
 *    sealed state, claim the token (single use), keep only answers to what was asked, check
 *    each against its question, and ask again, without running the handler, when one does not
 *    fit;
 * 3. run the middleware chain around the handler, and normalise its result once;
 * 4. finish: a final result is checked and shaped for the wire; an ask passes the era gate,
 *    keeps what the client can answer in its version's vocabulary, and the flow seals it;
 *
 * and every failure on the way goes through one funnel (`mapFailure`) that reports it and maps
 * it to the wire by era and handler kind.
 */

const KIND_LABEL = {
  tool: 'tool',
  prompt: 'prompt',
  resource: 'resource',
  resourceTemplate: 'resource',
} as const;

/**
 * A failure of the server's own machinery (a store that is down, say) before or after the
 * handler: `-32603 Internal error` for every kind of handler, with the cause kept for `onError`.
 * It is never an `isError` tool result, which would show the model the server's internals.
 */
function serverFault(error: unknown): never {
  if (error instanceof ParleyError || isProtocolError(error)) throw error;
  throw new RoundFault('Internal error', { cause: error });
}

/**
 * A run that ended because its replica handed the call to another, which goes on with it: no
 * failure to report (nor does its client see this run's ending).
 */
function handedOver(error: unknown): boolean {
  return error instanceof SessionClosedError && error.data?.reason === 'handed_over';
}

/** Report a failure once and map it to the wire. */
function fail(runtime: RoundRuntime, error: unknown, site: FailureSite): RoundReply {
  if (!handedOver(error))
    runtime.report(error instanceof RoundFault && error.cause !== undefined ? error.cause : error, {
      method: site.method,
      target: site.target,
    });
  const failure = mapFailure(error, site);
  return failure.kind === 'error'
    ? failure
    : { kind: 'result', result: failure.result.toJSON() as unknown as Record<string, unknown> };
}

/** How errors name a round's handler: `tool book_flight`. */
function labelOf(target: RoundTarget): string {
  return `${KIND_LABEL[target.handler.kind]} ${target.handler.name}`;
}

/**
 * Where a round's flow opens: the server's runtime, except that a round on the App route is
 * single use even on a server that did not ask for it (an App's submission is a person's click,
 * and a replayed one must not run the tool's effects again), and that answers from a host that
 * cannot draw some fields are read back into the forms as written.
 */
function flowRuntimeOf(runtime: RoundRuntime, reach: AskReach): FlowRuntime {
  const appSingleUse = reach.app && runtime.singleUse === undefined;
  if (!appSingleUse && reach.cannotRender.length === 0) return runtime;
  const { sealer, maxReasks, warn, now } = runtime;
  const singleUse = appSingleUse ? runtime.appSingleUse : runtime.singleUse;
  return { sealer, maxReasks, warn, now, singleUse, cannotRender: reach.cannotRender };
}

/** Serve one round. Never throws: every failure is a reply. */
export async function serveRound(
  runtime: RoundRuntime,
  incoming: RoundRequest,
): Promise<RoundReply> {
  let req = incoming;
  const era = req.request.era;
  let target: RoundTarget;
  let reach: AskReach;
  try {
    // An answer from the App is the next round of the tool it answers.
    if (isAppAnswer(req, runtime.asking.routes)) req = appAnswerRound(req);
    const { clientCapabilities, clientInfo } = req.request;
    reach = req.reach ?? reachOf(runtime.asking, clientCapabilities, clientInfo, req.method);
    target = resolveTarget(runtime, req.method, req.params, reach.capabilities);
  } catch (error) {
    // An unknown name is the client's mistake, not the server's: answered, not reported.
    const failure = mapFailure(error, { era, kind: 'tool', method: req.method, target: '-' });
    return failure.kind === 'error'
      ? failure
      : {
          kind: 'error',
          error: { code: JSON_RPC_ERROR_CODES.internalError, message: 'Internal error' },
        };
  }
  const tooLarge =
    limitProblem(target.arguments, runtime.limits.maxDepth, runtime.limits.maxNodes) ??
    limitProblem(req.inputResponses, runtime.limits.maxDepth, runtime.limits.maxNodes);
  if (tooLarge !== undefined) {
    return {
      kind: 'error',
      error: {
        code: JSON_RPC_ERROR_CODES.invalidParams,
        message: `Invalid params for ${labelOf(target)}: the request is ${tooLarge}`,
      },
    };
  }
  const checking = target.check(target.arguments);
  const checked = checking instanceof Promise ? await checking : checking;
  if (!checked.ok) {
    const message = `Invalid arguments for ${labelOf(target)}: ${checked.issues.join('; ')}`;
    // SEP-1303: a tool's argument errors are a result the model can read and correct.
    if (target.handler.kind === 'tool') {
      return { kind: 'result', result: toolError(new Error(message)).toJSON() as never };
    }
    return { kind: 'error', error: { code: JSON_RPC_ERROR_CODES.invalidParams, message } };
  }

  req.trace?.arguments(target.arguments);

  // A proxy's pass-through: another server's round, its state and answers left as they came.
  // Not where Parley shapes the asks for the host: the App route, forms it adapts.
  const { relayRound } = target;
  if (era === 'modern' && relayRound && !reach.app && reach.cannotRender.length === 0) {
    try {
      return { kind: 'result', result: await relayedRound(runtime, req, target, relayRound) };
    } catch (error) {
      return fail(runtime, error, {
        era,
        kind: target.handler.kind,
        method: req.method,
        target: target.handler.name,
      });
    }
  }

  const binding: RequestBinding = {
    method: req.method,
    target: target.handler.name,
    arguments: target.bindingArguments,
  };
  if (req.request.principal !== undefined) binding.principal = req.request.principal;
  // A round that opens a state and seals the next binds both to this request: digested once.
  const bound: RequestBinding | BoundRequest =
    req.requestState === undefined ? binding : runtime.sealer.bind(binding);
  let flow: Flow | undefined;
  let handlerRan = false;
  try {
    try {
      // At once, without an await, where opening answers at once (node:crypto, no single use).
      const opening = openFlow(flowRuntimeOf(runtime, reach), target, req, bound);
      const opened = opening instanceof Promise ? await opening : opening;
      if (!(opened instanceof Flow)) return replayOf(opened.replay);
      flow = opened;
    } catch (error) {
      serverFault(error);
    }
    const { trace } = req;
    // The span starts once the state is open: the flow's trace context is sealed inside it.
    trace?.begin(flow.envelope?.trace);
    trace?.flow(flow.identity, runtime.now);
    handlerRan = true;
    // While telemetry records, the handler runs with the request's span active.
    const reply = await (trace === undefined
      ? runRound(runtime, req, target, checked.value, flow, reach)
      : trace.run(runRound, runtime, req, target, checked.value, flow, reach));
    // Under single use the token is spent with this outcome (kept in this process until the
    // store takes it, when it is down): a retry gets it again, never a second run.
    if (flow.use?.kind === 'run') await flow.use.finish(outcomeOf(reply));
    return reply;
  } catch (error) {
    const reply = fail(runtime, error, {
      era,
      kind: target.handler.kind,
      method: req.method,
      target: target.handler.name,
    });
    const use = flow?.use;
    if (use?.kind === 'run') {
      // Before the handler, or an answer that does not fit (the client corrects it with the
      // same token): nothing is spent. After it, the failure is the token's outcome.
      if (handlerRan && !(error instanceof InvalidAnswerError)) await use.finish(outcomeOf(reply));
      else await use.release().catch(() => undefined);
    }
    return reply;
  }
}

/** Where a kept outcome that is an error says so (a result is kept as it went out). */
const ERROR_OUTCOME = 'parley/error';

/** A round's reply as single use keeps it. */
function outcomeOf(reply: RoundReply): unknown {
  return reply.kind === 'result' ? reply.result : { [ERROR_OUTCOME]: reply.error };
}

/** A kept outcome, as the reply it was. */
function replayOf(outcome: unknown): RoundReply {
  const record = outcome as Record<string, unknown>;
  return Object.hasOwn(record, ERROR_OUTCOME)
    ? { kind: 'error', error: record[ERROR_OUTCOME] as JsonRpcErrorObject }
    : { kind: 'result', result: record };
}
