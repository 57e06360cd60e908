import {
  EraMismatchError,
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  type InputRequest,
  type InputRequiredResult,
} from '@parley/core';
import type { MiddlewareContext } from '@parley/middleware';

import type { AskReach } from '../ask/askRoutes.ts';
import { formFor } from '../ask/versionSchemas.ts';
import type { Flow } from '../flow/flow.ts';
import { Context } from '../handler/context.ts';
import type { FallbackAnswers } from '../handler/contextTypes.ts';
import { fallbackAnswers } from '../handler/fallback/answers.ts';
import { askOf, type RoundTarget } from '../handler/kinds/target.ts';
import { appAskResult } from './appRoute.ts';
import { answerableAsk } from './finishAsk.ts';
import { roundFieldsOf, runInstalledMiddleware } from './middleware.ts';
import type { RoundReply, RoundRequest } from './request.ts';
import type { RoundRuntime } from './roundRuntime.ts';
import { Terminal } from './runHandler.ts';

/**
 * Steps 3 and 4 of a round (see `serveRound.ts`): build the handler's context, run the
 * middleware chain around the handler (or the re-ask), and finish: a final result is checked
 * and shaped for the wire; an ask passes the era gate and the flow seals it.
 */

/** What middleware sees of the round (made only when middleware is installed). */
function middlewareContextOf(
  req: RoundRequest,
  target: RoundTarget,
  flow: Flow,
  pushed: () => number,
): MiddlewareContext {
  return {
    ...roundFieldsOf(req, target),
    flow: flow.identity,
    inputResponses: flow.answers,
    requestState: flow.requestState,
    isContinuation: flow.isContinuation,
    resumesFlow: flow.envelope !== undefined,
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
  flow: Flow,
  reach: AskReach,
): Promise<RoundReply> {
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
  const middleware =
    runtime.middleware.length === 0
      ? undefined
      : middlewareContextOf(req, target, flow, () => pushed);
  const context: Context = new Context({
    handler: target.handler,
    request: req.request,
    flow,
    maxReasks: target.maxReasks ?? runtime.maxReasks,
    cancellation: req,
    push,
    startTask: req.startTask,
    channel: req,
    elicitationTimeoutMs: runtime.elicitationTimeoutMs,
    lintSchema: runtime.lintSchema,
    reasked: trace === undefined ? undefined : () => trace.reasked(),
    reach,
    // Read when the fallback runs, once the context exists.
    fallback:
      target.tool?.fallback === undefined
        ? undefined
        : fallbackOf(target, flow, reach, () => context),
  });

  const terminal = new Terminal(target, args, context, flow, reach.capabilities);
  // Without middleware there is no chain to build.
  const result = target.normalise(
    middleware === undefined
      ? await terminal.run()
      : await runInstalledMiddleware(runtime.middleware, middleware, () => terminal.run()),
  );

  const ask = askOf(result);
  if (ask === undefined) {
    // Shaped by its kind: at once, unless something (a tool's output schema) must be awaited.
    const finishing = target.finish(result, req, flow.isContinuation);
    return { kind: 'result', result: finishing instanceof Promise ? await finishing : finishing };
  }
  // The App brings the answer back as a new round on either era, as a modern client does.
  if (req.request.era === 'handshake' && !reach.app) {
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
  // The App draws the newest vocabulary, whatever the client's version.
  const { kept, sent } = answerableAsk(
    ask,
    reach.capabilities,
    reach.app ? LATEST_HANDSHAKE_PROTOCOL_VERSION : req.request.protocolVersion,
  );
  // What telemetry seals for the next round (its trace, when the ask left), while it records.
  const sealing = flow.seal(
    ask,
    kept,
    reach.appElicitation || reach.cannotRender.length > 0
      ? drawnForHost(sent, reach, req.request.protocolVersion)
      : sent,
    trace?.sealed(runtime.now()),
  );
  // Sealed at once where the sealer answers at once: no await for it.
  const wire = sealing instanceof Promise ? await sealing : sealing;
  if (reach.app) {
    const result = appAskResult(
      target.handler.name,
      (target.bindingArguments ?? {}) as Record<string, unknown>,
      wire,
    );
    return { kind: 'result', result: req.projectToolResult(result, undefined) as never };
  }
  return { kind: 'result', result: wire as unknown as Record<string, unknown> };
}

/**
 * Each form as this host draws it (`formFor`): its fields adapted where the host cannot draw
 * them, and, under SEP-3118, the App named to draw it with, the schema kept.
 */
function drawnForHost(
  sent: InputRequiredResult['inputRequests'],
  reach: AskReach,
  version: string,
): typeof sent {
  if (sent === undefined) return sent;
  const drawing = { cannotRender: reach.cannotRender, appElicitation: reach.appElicitation };
  const drawn: NonNullable<typeof sent> = {};
  for (const key of Object.keys(sent)) {
    const request = sent[key] as InputRequest;
    drawn[key] =
      request.method === 'elicitation/create' && request.params.mode !== 'url'
        ? { ...request, params: formFor(request.params, version, drawing).params }
        : request;
  }
  return drawn;
}

/** A tool's `askFallback`, answering what this client cannot, from this round's arguments. */
function fallbackOf(
  target: RoundTarget,
  flow: Flow,
  reach: AskReach,
  context: () => Context,
): FallbackAnswers | undefined {
  const fallback = target.tool?.fallback;
  if (fallback === undefined) return undefined;
  const round = {
    tool: target.handler.name,
    fallback,
    arguments: target.askArguments,
    capabilities: reach.capabilities,
  };
  return (asks, fail) => fallbackAnswers(round, context(), flow, asks, fail);
}
