import {
  EraMismatchError,
  InvalidRequestStateError,
  ToolResult,
  type InputRequest,
  type ReadResourceResult,
} from '@parley/core';
import type { MiddlewareContext } from '@parley/middleware';
import type { BoundRequest, RequestBinding } from '@parley/state-sealing';

import { Context } from '../handler/context.ts';
import type { FallbackAnswers } from '../handler/contextTypes.ts';
import { fallbackAnswers } from '../handler/fallback/answers.ts';
import { FlowReplay } from '../handler/flowReplay.ts';
import type { RoundEnvelope } from './envelope.ts';
import { RoundFault } from './errors.ts';
import { authorStateOf, finishAsk } from './finishAsk.ts';
import { runInstalledMiddleware } from './middleware.ts';
import { reaskBudget, type OpenedRound } from './openRound.ts';
import type { RoundReply, RoundRequest } from './request.ts';
import type { RoundRuntime } from './roundRuntime.ts';
import { Terminal } from './runHandler.ts';
import { askOf, uncacheable, type RoundTarget } from './targets.ts';

/**
 * Steps 3 and 4 of a round (see `serveRound.ts`): build the handler's context, run the
 * middleware chain around the handler (or the re-ask), and finish: a final result is checked
 * and shaped for the wire; an ask passes the era gate and is sealed.
 */

/** The typed state the handler gets, checked against its `stateSchema`. */
async function stateOf(target: RoundTarget, envelope: RoundEnvelope | undefined): Promise<unknown> {
  const state = envelope?.state;
  if (state?.form !== 'json') return null;
  const schema = target.options.stateSchema as
    { '~standard': { validate: (value: unknown) => unknown } } | undefined;
  if (schema === undefined) return state.value;
  const checked = (await schema['~standard'].validate(state.value)) as {
    value?: unknown;
    issues?: readonly { message: string }[];
  };
  if (checked.issues !== undefined) {
    throw new InvalidRequestStateError({
      reason: `the state does not match the handler's stateSchema: ${checked.issues.map((issue) => issue.message).join('; ')}`,
    });
  }
  return checked.value;
}

function middlewareContextOf(
  req: RoundRequest,
  target: RoundTarget,
  context: Context,
  resumesFlow: boolean,
  pushed: () => number,
): MiddlewareContext {
  return {
    method: req.method,
    params: target.middlewareParams,
    era: context.era,
    protocolVersion: context.requestContext.protocolVersion,
    principal: context.requestContext.principal,
    handler: target.handler,
    flow: context.flow,
    inputResponses: context.inputResponses,
    requestState: context.requestState,
    isContinuation: context.isContinuation,
    resumesFlow,
    get pushedRequests() {
      return pushed();
    },
    store: new Map(),
  };
}

/** Run the middleware chain and the handler (or the re-ask), and finish the round. */
export async function runRound(
  runtime: RoundRuntime,
  req: RoundRequest,
  target: RoundTarget,
  args: unknown,
  binding: RequestBinding | BoundRequest,
  opened: OpenedRound,
): Promise<RoundReply> {
  const { envelope, flow } = opened;
  let pushed = 0;
  const { trace } = req;
  // Each pushed request counted (for the middleware) and, while telemetry records, timed. With
  // neither, the channel is used as it is: a call waiting on its user holds no wrapper.
  const waited = <T>(method: string, send: () => Promise<T>): Promise<T> => (
    (pushed += 1),
    trace === undefined ? send() : trace.wait(method, send)
  );
  const push =
    req.push === undefined || (trace === undefined && runtime.middleware.length === 0)
      ? req.push
      : {
          ...req.push,
          elicit: (...call: Parameters<typeof req.push.elicit>) =>
            waited('elicitation/create', () => req.push!.elicit(...call)),
          sample: (...call: Parameters<typeof req.push.sample>) =>
            waited('sampling/createMessage', () => req.push!.sample(...call)),
          listRoots: (...call: Parameters<typeof req.push.listRoots>) =>
            waited('roots/list', () => req.push!.listRoots(...call)),
        };
  const replay = new FlowReplay(envelope, opened.answers, opened.asked);
  const context: Context = new Context({
    handler: target.handler,
    request: req.request,
    flow,
    replay,
    inputResponses: opened.answers,
    requestState:
      envelope?.state == null
        ? null
        : envelope.state.form === 'string'
          ? envelope.state.value
          : JSON.stringify(envelope.state.value),
    // Only JSON state has a schema to check (and so something to await).
    state: envelope?.state?.form === 'json' ? await stateOf(target, envelope) : null,
    maxReasks: reaskBudget(runtime, target),
    cancellation: req,
    push,
    startTask: req.startTask,
    channel: req,
    elicitationTimeoutMs: runtime.elicitationTimeoutMs,
    lintSchema: runtime.lintSchema,
    reasked: trace === undefined ? undefined : () => trace.reasked(),
    // Read when the fallback runs, once the context exists.
    fallback: target.tool?.fallback === undefined ? undefined : fallbackOf(target, () => context),
  });

  const terminal = new Terminal(runtime, target, args, context, opened, replay);
  // Without middleware there is no chain to build, nor a context for it.
  const result = target.normalise(
    runtime.middleware.length === 0
      ? await terminal.run()
      : await runInstalledMiddleware(
          runtime.middleware,
          middlewareContextOf(req, target, context, envelope !== undefined, () => pushed),
          () => terminal.run(),
        ),
  );
  const { reask } = terminal;

  const ask = askOf(result);
  if (ask === undefined) return finishComplete(req, target, result, context);
  if (req.request.era === 'handshake') {
    throw new EraMismatchError({
      kind: target.handler.kind,
      name: target.handler.name,
      protocolVersion: req.request.protocolVersion,
      used: 'inputRequired',
    });
  }
  const requests = ask.inputRequests;
  for (const key in requests) {
    if (!Object.hasOwn(requests, key)) continue;
    const request = requests[key] as InputRequest;
    if (request.method === 'elicitation/create' && request.params.mode !== 'url') {
      runtime.lintSchema({ handler: target.handler, key }, request.params.requestedSchema);
    }
  }
  const isReask = reask !== undefined && ask.inputRequests === reask.ask.inputRequests;
  // What telemetry seals for the next round (its trace, when the ask left), while it records.
  const sealed = trace?.sealed(runtime.now());
  const finishing = finishAsk(ask, {
    capabilities: req.request.clientCapabilities,
    protocolVersion: req.request.protocolVersion,
    sealer: runtime.sealer,
    binding,
    envelope: isReask
      ? { ...reask!.envelope, round: flow.round, trace: sealed?.trace, askedAt: sealed?.askedAt }
      : {
          flowId: flow.id,
          round: flow.round,
          startedAt: flow.startedAt,
          state: authorStateOf(ask),
          carried: {},
          reasks: {},
          answers: replay.answers,
          remembered: replay.remembered,
          trace: sealed?.trace,
          askedAt: sealed?.askedAt,
        },
  });
  // Sealed at once where the sealer answers at once: no await for it.
  const wire = finishing instanceof Promise ? await finishing : finishing;
  return { kind: 'result', result: wire as unknown as Record<string, unknown> };
}

/** A tool's `askFallback`, answering what this client cannot, from this round's arguments. */
function fallbackOf(target: RoundTarget, context: () => Context): FallbackAnswers | undefined {
  const fallback = target.tool?.fallback;
  if (fallback === undefined) return undefined;
  const round = { tool: target.handler.name, fallback, arguments: target.askArguments };
  return (asks, fail) => fallbackAnswers(round, context(), asks, fail);
}

/** A final result, checked and shaped for the wire. */
async function finishComplete(
  req: RoundRequest,
  target: RoundTarget,
  result: ReturnType<RoundTarget['normalise']>,
  context: Context,
): Promise<RoundReply> {
  if (result instanceof ToolResult) {
    const tool = target.tool;
    const wire = result.toJSON() as Parameters<RoundRequest['projectToolResult']>[0];
    if (tool?.options.outputSchema !== undefined && !result.isError) {
      const checked = await tool.options.outputSchema.safeParseAsync(wire.structuredContent);
      if (!checked.success) {
        throw new RoundFault(
          `Tool ${tool.name} returned structured content that does not match its outputSchema: ${checked.error.message}`,
        );
      }
    }
    return {
      kind: 'result',
      result: req.projectToolResult(wire, tool?.outputJsonSchema) as unknown as Record<
        string,
        unknown
      >,
    };
  }
  if (req.method === 'resources/read' && context.era === 'modern' && context.isContinuation) {
    return { kind: 'result', result: uncacheable(result as ReadResourceResult) as never };
  }
  return { kind: 'result', result: result as unknown as Record<string, unknown> };
}
