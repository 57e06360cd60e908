import {
  EraMismatchError,
  InvalidAnswerError,
  InvalidInputResponsesError,
  InvalidRequestStateError,
  JSON_RPC_ERROR_CODES,
  ParleyError,
  ToolResult,
  UnsupportedCapabilityError,
  clientFeatureOf,
  missingCapabilities,
  type Flow,
  type InputRequest,
  type InputRequiredResult,
  type InputResponses,
  type ReadResourceResult,
} from '@parley/core';
import type { MiddlewareContext } from '@parley/middleware';
import type { RequestBinding } from '@parley/state-sealing';

import { Context } from '../context.ts';
import { endedCalls } from '../fallback/apply.ts';
import { unanswerableAsks } from '../fallback/askArguments.ts';
import { runInstalledMiddleware } from '../middlewareRunner.ts';
import type { ServerRuntime } from '../runtime.ts';
import { screenAnswers, type AskedRecord } from './asked.ts';
import { newFlowId, openEnvelope, type RoundEnvelope } from './envelope.ts';
import { FlowReplay } from './replay.ts';
import { suspensions, swallowedSuspension } from './suspension.ts';
import { RoundFault, isProtocolError, mapFailure, toolError, type FailureSite } from './errors.ts';
import { authorStateOf, finishAsk } from './finishAsk.ts';
import { limitProblem } from './limits.ts';
import { answerProblem, problemOf, reaskRequest, type AnswerProblem } from './reask.ts';
import { isEmpty } from './records.ts';
import type { RoundReply, RoundRequest } from './request.ts';
import { useToken, type TokenUse } from './singleUse.ts';
import { urlElicitationAsk } from './urlElicitation.ts';
import { askOf, resolveTarget, uncacheable, type RoundTarget } from './targets.ts';

/**
 * The round: one `tools/call`, `prompts/get` or `resources/read`, from the request a transport
 * received to the reply it sends. Every kind of handler and both eras take this one path:
 *
 * 1. resolve the handler, bound the arguments' size, check them against its schema;
 * 2. open the round: check `inputResponses` is an object, open and verify the sealed state,
 *    claim the token (single use), keep only answers to what was asked, check each against
 *    its question, and ask again, without running the handler, when one does not fit;
 * 3. run the middleware chain around the handler, and normalise its result once;
 * 4. finish: a final result is checked and shaped for the wire; an ask passes the era gate,
 *    keeps what the client can answer in its version's vocabulary, and is sealed;
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** What an opened round knows before its handler runs. */
interface OpenedRound {
  flow: Flow;
  /** The envelope the round came back with; `undefined` on a round without state. */
  envelope: RoundEnvelope | undefined;
  /** What this round may accept answers to. */
  asked: AskedRecord;
  /** The screened answers (with any carried over), or `null` when the client sent none. */
  answers: InputResponses | null;
  /** Answers that did not fit and are asked again before the handler runs. */
  reask: AnswerProblem[];
  use: TokenUse | undefined;
}

function reaskBudget(runtime: ServerRuntime, target: RoundTarget): number {
  return target.options.maxReasks ?? runtime.maxReasks;
}

function hasBudget(
  runtime: ServerRuntime,
  target: RoundTarget,
  envelope: RoundEnvelope,
  key: string,
): boolean {
  return (
    (envelope.reasks[key] ?? 0) < reaskBudget(runtime, target) &&
    envelope.asked[key]?.question !== undefined
  );
}

/** Check the answers' shape, open the state, claim the token, and screen the answers. */
async function openRound(
  runtime: ServerRuntime,
  req: RoundRequest,
  target: RoundTarget,
  binding: RequestBinding,
): Promise<OpenedRound | { replay: unknown }> {
  const raw = req.inputResponses;
  if (raw !== undefined && !isRecord(raw)) {
    throw new InvalidInputResponsesError({
      reason: `inputResponses must be an object of answers by key, got ${describe(raw)}`,
    });
  }
  let envelope: RoundEnvelope | undefined;
  let use: TokenUse | undefined;
  if (req.requestState !== undefined) {
    if (typeof req.requestState !== 'string') {
      throw new InvalidRequestStateError({ reason: 'not-a-string' });
    }
    const opened = await openEnvelope(runtime.sealer, req.requestState, binding);
    if (runtime.singleUse !== undefined) {
      use = await useToken(runtime.singleUse, opened.tokenId, opened.expiresAt, req.signal);
      if (use.kind === 'replay') return { replay: use.outcome };
      if (use.kind === 'refuse') throw new InvalidRequestStateError({ reason: 'replayed' });
    }
    envelope = opened.envelope;
  }
  const flow: Flow =
    envelope !== undefined
      ? { id: envelope.flowId, round: envelope.round + 1, startedAt: envelope.startedAt }
      : { id: newFlowId(), round: raw === undefined ? 1 : 2, startedAt: runtime.now() };
  // Without state nothing was asked in this flow: only the asks the handler declared may be
  // answered up front.
  const asked = envelope?.asked ?? target.declaredAsks;
  if (raw === undefined) {
    return { flow, envelope, asked, answers: null, reask: [], use };
  }
  const { kept, dropped } = screenAnswers(raw, asked);
  for (const key of dropped) {
    runtime.warn(
      `${target.handler.kind === 'tool' ? 'Tool' : 'Handler'} '${target.handler.name}': ignored an answer under '${key}', which ${envelope === undefined ? 'no round of this flow asked' : 'the previous round did not ask'}.`,
      { handler: target.handler, key },
    );
  }
  // `kept` is this round's own record; answers carried over from a re-ask join it.
  const carried = envelope?.carried;
  const answers: Record<string, InputResponses[string]> =
    carried === undefined || isEmpty(carried) ? kept : { ...carried, ...kept };
  const problems: AnswerProblem[] = [];
  for (const key in kept) {
    const entry = asked[key];
    if (entry?.question === undefined) continue;
    const problem = answerProblem(key, kept[key]!, entry.question, entry.digest);
    if (problem !== undefined) problems.push(problem);
  }
  let reask: AnswerProblem[] = [];
  if (problems.length > 0) {
    if (envelope === undefined) {
      // A bad answer given up front is as good as none: the handler asks for it.
      for (const problem of problems) delete answers[problem.key as string];
    } else if (
      problems.every((problem) => hasBudget(runtime, target, envelope, problem.key as string))
    ) {
      reask = problems;
    }
  }
  return { flow, envelope, asked, answers: Object.freeze(answers), reask, use };
}

/**
 * The ask that puts `problems` to the user again, and the envelope it continues with (with what
 * `ctx.ask` and `ctx.remember` recorded on this run, so a re-run after the re-ask replays it).
 */
function reaskOf(
  opened: OpenedRound & { envelope: RoundEnvelope },
  problems: AnswerProblem[],
  replay: FlowReplay,
): { ask: InputRequiredResult; envelope: RoundEnvelope } {
  const { envelope } = opened;
  const inputRequests: Record<string, InputRequest> = {};
  const reasks = { ...envelope.reasks };
  const carried: Record<string, InputResponses[string]> = { ...opened.answers };
  for (const problem of problems) {
    const key = problem.key as string;
    const question = envelope.asked[key]?.question;
    if (question === undefined) continue;
    inputRequests[key] = reaskRequest(question, problem);
    reasks[key] = (reasks[key] ?? 0) + 1;
    delete carried[key];
  }
  return {
    ask: { resultType: 'input_required', inputRequests },
    envelope: {
      ...envelope,
      carried,
      reasks,
      answers: replay.answers,
      remembered: replay.remembered,
    },
  };
}

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

/**
 * Run the handler, and end the round at the question `ctx.ask` had no answer to: the suspension
 * becomes the round's ask here, inside the middleware chain, so middleware sees an ordinary
 * asking round. A suspension the handler caught and did not rethrow ends the round in an error
 * that says so (never a result built on an answer it does not have, never a hang).
 */
async function runHandler(
  target: RoundTarget,
  args: unknown,
  context: Context,
): Promise<ReturnType<RoundTarget['normalise']>> {
  refuseHidden(target, context);
  let result: ReturnType<RoundTarget['normalise']>;
  try {
    result = await target.run(args, context);
  } catch (error) {
    const ended = endedCalls.get(context);
    if (ended !== undefined) return ended;
    const suspension = suspensions.get(context);
    if (suspension === undefined) throw error;
    if (error !== suspension) {
      throw swallowedSuspension(target.handler, suspension, 'threw', error);
    }
    return target.normalise({ resultType: 'input_required', inputRequests: suspension.pending });
  }
  const ended = endedCalls.get(context);
  if (ended !== undefined) return ended;
  const suspension = suspensions.get(context);
  if (suspension !== undefined) throw swallowedSuspension(target.handler, suspension, 'returned');
  return result;
}

/**
 * A tool hidden from this client (`askFallback: 'hide'`) fails before its handler runs, with the
 * error its first ask would have met, so nothing it does before asking happens.
 */
function refuseHidden(target: RoundTarget, context: Context): void {
  const fallback = target.tool?.fallback;
  if (fallback?.policy !== 'hide') return;
  const capabilities = context.requestContext.clientCapabilities;
  const unanswerable = unanswerableAsks(fallback, capabilities, false);
  const missing = missingCapabilities(
    capabilities,
    unanswerable.map((entry) => entry.ask),
  );
  if (missing === undefined) return;
  throw new UnsupportedCapabilityError(
    { feature: clientFeatureOf(missing), requiredCapabilities: missing },
    {
      message: `Tool ${target.handler.name} needs ${clientFeatureOf(missing)}, which this client did not declare (it is not listed to this client).`,
    },
  );
}

/**
 * The end of the middleware chain: the handler, or the re-ask of answers that did not fit. A
 * re-ask made here (not by the handler) keeps the previous round's record and state, in
 * `reask`. (One object, not a closure per step: this runs on every round.)
 */
class Terminal {
  reask: ReturnType<typeof reaskOf> | undefined;
  readonly #runtime: ServerRuntime;
  readonly #target: RoundTarget;
  readonly #args: unknown;
  readonly #context: Context;
  readonly #opened: OpenedRound;
  readonly #replay: FlowReplay;

  constructor(
    runtime: ServerRuntime,
    target: RoundTarget,
    args: unknown,
    context: Context,
    opened: OpenedRound,
    replay: FlowReplay,
  ) {
    this.#runtime = runtime;
    this.#target = target;
    this.#args = args;
    this.#context = context;
    this.#opened = opened;
    this.#replay = replay;
  }

  #reaskNow(problems: AnswerProblem[]): ReturnType<RoundTarget['normalise']> {
    this.reask = reaskOf(
      this.#opened as OpenedRound & { envelope: RoundEnvelope },
      problems,
      this.#replay,
    );
    return this.#target.normalise(this.reask.ask);
  }

  async run(): Promise<ReturnType<RoundTarget['normalise']>> {
    const opened = this.#opened;
    const target = this.#target;
    if (opened.reask.length > 0) return this.#reaskNow(opened.reask);
    try {
      return await runHandler(target, this.#args, this.#context);
    } catch (error) {
      // `-32042` does not exist on the modern era: the same pages become URL asks.
      const pages = urlElicitationAsk(error, this.#context.era);
      if (pages !== undefined) return target.normalise(pages);
      // A bad answer the handler found itself (a refinement the schema cannot express) and let
      // go is asked again like any other, while the budget lasts.
      const key = error instanceof InvalidAnswerError ? error.data?.key : undefined;
      const envelope = opened.envelope;
      if (
        key !== undefined &&
        envelope !== undefined &&
        Object.hasOwn(opened.answers ?? {}, key) &&
        hasBudget(this.#runtime, target, envelope, key)
      ) {
        return this.#reaskNow([problemOf(key, error as InvalidAnswerError)]);
      }
      throw error;
    }
  }
}

/** Run the middleware chain and the handler (or the re-ask), and finish the round. */
async function runRound(
  runtime: ServerRuntime,
  req: RoundRequest,
  target: RoundTarget,
  args: unknown,
  binding: RequestBinding,
  opened: OpenedRound,
): Promise<RoundReply> {
  const { envelope, flow } = opened;
  let pushed = 0;
  const push =
    req.push === undefined
      ? undefined
      : {
          ...req.push,
          elicit: (...call: Parameters<typeof req.push.elicit>) => (
            (pushed += 1),
            req.push!.elicit(...call)
          ),
          sample: (...call: Parameters<typeof req.push.sample>) => (
            (pushed += 1),
            req.push!.sample(...call)
          ),
          listRoots: (...call: Parameters<typeof req.push.listRoots>) => (
            (pushed += 1),
            req.push!.listRoots(...call)
          ),
        };
  const replay = new FlowReplay(envelope, opened.answers, opened.asked);
  const context = new Context({
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
    fallback:
      target.tool?.fallback === undefined
        ? undefined
        : {
            tool: target.handler.name,
            fallback: target.tool.fallback,
            arguments: target.askArguments,
          },
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
  const wire = await finishAsk(ask, {
    capabilities: req.request.clientCapabilities,
    protocolVersion: req.request.protocolVersion,
    sealer: runtime.sealer,
    binding,
    envelope: isReask
      ? { ...reask!.envelope, round: flow.round }
      : {
          flowId: flow.id,
          round: flow.round,
          startedAt: flow.startedAt,
          state: authorStateOf(ask),
          carried: {},
          reasks: {},
          answers: replay.answers,
          remembered: replay.remembered,
        },
  });
  return { kind: 'result', result: wire as unknown as Record<string, unknown> };
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

/**
 * A failure of the server's own machinery (a store that is down, say) before or after the
 * handler: `-32603 Internal error` for every kind of handler, with the cause kept for `onError`.
 * It is never an `isError` tool result, which would show the model the server's internals.
 */
function serverFault(error: unknown): never {
  if (error instanceof ParleyError || isProtocolError(error)) throw error;
  throw new RoundFault('Internal error', { cause: error });
}

/** Report a failure once and map it to the wire. */
function fail(runtime: ServerRuntime, error: unknown, site: FailureSite): RoundReply {
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

/** Serve one round. Never throws: every failure is a reply. */
export async function serveRound(runtime: ServerRuntime, req: RoundRequest): Promise<RoundReply> {
  const era = req.request.era;
  let target: RoundTarget;
  try {
    target = resolveTarget(runtime, req.method, req.params, req.request.clientCapabilities);
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

  const binding: RequestBinding = {
    method: req.method,
    target: target.handler.name,
    arguments: target.bindingArguments,
  };
  if (req.request.principal !== undefined) binding.principal = req.request.principal;
  let use: TokenUse | undefined;
  try {
    let opened: Awaited<ReturnType<typeof openRound>>;
    try {
      opened = await openRound(runtime, req, target, binding);
    } catch (error) {
      serverFault(error);
    }
    if ('replay' in opened)
      return { kind: 'result', result: opened.replay as Record<string, unknown> };
    use = opened.use;
    const reply = await runRound(runtime, req, target, checked.value, binding, opened);
    if (use?.kind === 'run') {
      if (reply.kind === 'result') await use.finish(reply.result).catch(serverFault);
      else await use.release().catch(serverFault);
    }
    return reply;
  } catch (error) {
    if (use?.kind === 'run') await use.release().catch(() => undefined);
    return fail(runtime, error, {
      era,
      kind: target.handler.kind,
      method: req.method,
      target: target.handler.name,
    });
  }
}
