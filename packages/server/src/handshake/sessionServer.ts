import {
  JSON_RPC_ERROR_CODES,
  LATEST_HANDSHAKE_PROTOCOL_VERSION,
  jsonRpcError,
  type ClientCapabilities,
  type Implementation,
  type ParleyError,
  type Root,
} from '@parley/core';
import {
  ProtocolError,
  type Server,
  type AuthInfo,
  type RequestId,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';

import { pushedResultProblem } from '../ask/answers.ts';
import { complete } from '../runtime/completion.ts';
import type { LogLevel, RequestContext } from '../handler/contextTypes.ts';
import { serveList, type ListMethod } from '../runtime/lists.ts';
import { withAskKey, withMeta } from '../handler/pushChannel.ts';
import type { KeptCall, PushChannel, PushOptions } from '../handler/pushChannel.ts';
import { randomUUID } from '../utils/randomness.ts';
import type { RoundReply, RoundRequest } from '../round/request.ts';
import { serveRound } from '../round/serveRound.ts';
import type { RequestTrace } from '../telemetry/requestTrace.ts';
import type { RoundMethod } from '../round/targets.ts';
import { capabilitiesOf, hasResources, type ServerRuntime } from '../runtime/serverRuntime.ts';
import { handshakeTasksCapability } from '../tasks/handshakeWire.ts';
import { serveHandshakeTaskMethod, type PushQuestion } from '../tasks/serveTasks.ts';
import { hasTaskTools, serveToolCall } from '../tasks/taskCalls.ts';
import { CallProgress, type ProgressNotify } from './callProgress.ts';
import {
  HookedServer,
  startRequestIdsAt,
  type SdkRequestHandler,
  type SdkWrap,
} from './sdkInternals.ts';

/**
 * A handshake-era session (2025-11-25 and earlier) on the SDK's low-level `Server`: the SDK keeps
 * the protocol (framing, `initialize`, the session's capabilities, server→client requests on the
 * call's stream); every request is served by Parley's round pipeline and lists, exactly as the
 * modern dispatcher serves them.
 */

/** What a session is opened with. */
export interface SessionOptions {
  authInfo?: AuthInfo | undefined;
  /** Why server-initiated requests cannot reach this session's client, if they cannot. */
  pushUnavailable?: (() => ParleyError) | undefined;
  /** Who follows the session's calls, so it can abandon them when the session goes away. */
  calls?: CallTracker | undefined;
  /** The id of the first request the server sends its client (default 0). */
  firstRequestId?: number | undefined;
}

/** Follows the calls of one session (see `http/sessions.ts`). */
export interface CallTracker {
  /**
   * A call begins; `request` is its request's signal (aborted when the client cancels it), `id`
   * its JSON-RPC id.
   */
  begin(request: AbortSignal, id: RequestId): TrackedCall;
}

/** One call in flight. */
export interface TrackedCall {
  /**
   * Aborted when the request is, or when the call is abandoned. One signal, not a second one
   * joined to the request's with `AbortSignal.any`: a pending call holds as little as it can.
   */
  signal: AbortSignal;
  /** Why the call was abandoned (a Parley error), once it was. */
  readonly abandoned: Error | undefined;
  /** Its record, when one is kept for another replica to take it over. */
  readonly kept: KeptCall | undefined;
  /** Marks the call as waiting on the client while `pending` is. */
  waitOn<T>(pending: Promise<T>): Promise<T>;
  end(): void;
}

/** Answers of server-initiated requests reach Parley as they came: a bad one is Parley's to judge. */
const AS_SENT: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'parley', validate: (value: unknown) => ({ value }) },
};

function facts(
  server: Server,
  ctx: ServerContext,
  method: string,
  authInfo: AuthInfo | undefined,
): RequestContext {
  return {
    protocolVersion: server.getNegotiatedProtocolVersion() ?? LATEST_HANDSHAKE_PROTOCOL_VERSION,
    era: 'handshake',
    method,
    clientCapabilities: (server.getClientCapabilities() ?? {}) as ClientCapabilities,
    clientInfo: server.getClientVersion() as Implementation | undefined,
    sessionId: ctx.sessionId,
    principal: authInfo?.clientId,
  };
}

function pushChannel(
  server: Server,
  ctx: ServerContext,
  options: SessionOptions,
  call: TrackedCall | undefined,
  progress: CallProgress | undefined,
): PushChannel {
  const unavailable = options.pushUnavailable;
  // Not an async function: a call waiting on its user holds no suspended frame here.
  const send = (method: string, asked: object, { key, ...wait }: PushOptions): Promise<unknown> => {
    const params = withAskKey(asked, key);
    // A call taken over from another replica: what it asked there is answered from its record.
    const sent =
      call?.kept?.replay(method, params, wait) ??
      (ctx.mcpReq.send({ method, params } as never, AS_SENT, wait) as Promise<unknown>);
    const pending = progress === undefined ? sent : progress.whileWaiting(method, sent);
    if (call === undefined) return pending;
    // The SDK words an abort as a timeout; an abandoned call says why it was abandoned.
    return call.waitOn(pending).catch((error: unknown) => {
      throw call.abandoned ?? error;
    });
  };
  return {
    elicit: (params, wait) => send('elicitation/create', params, wait),
    sample: async (params, wait) => {
      const result = await send('sampling/createMessage', params, wait);
      const problem = pushedResultProblem('sampling/createMessage', result);
      if (problem !== undefined)
        throw new ProtocolError(JSON_RPC_ERROR_CODES.internalError, problem);
      return result as never;
    },
    listRoots: async (wait) => {
      const result = await send('roots/list', {}, wait);
      const problem = pushedResultProblem('roots/list', result);
      if (problem !== undefined)
        throw new ProtocolError(JSON_RPC_ERROR_CODES.internalError, problem);
      return (result as { roots: Root[] }).roots;
    },
    completeElicitation: (id) => server.createElicitationCompletionNotifier(id)(),
    closeStream: () => {
      const close = ctx.http?.closeSSE;
      if (close === undefined) return false;
      close();
      return true;
    },
    ...(unavailable !== undefined ? { unavailable: () => unavailable() } : {}),
    ...(call?.kept !== undefined ? { kept: call.kept } : {}),
  };
}

/** A question on a `tasks/result` stream waits as long as a timer can (the task's TTL bounds it). */
const QUESTION_TIMEOUT_MS = 2_147_483_647;

/** The request's trace, while telemetry records (`params` as they came, `_meta` and all). */
function traceOf(
  runtime: ServerRuntime,
  server: Server,
  ctx: ServerContext,
  method: string,
  params: unknown,
): RequestTrace | undefined | Promise<RequestTrace | undefined> {
  const telemetry = runtime.telemetry;
  if (!telemetry?.mayRecord) return undefined;
  const request = ctx.http?.req;
  return telemetry.request({
    method,
    era: 'handshake',
    protocolVersion: server.getNegotiatedProtocolVersion() ?? LATEST_HANDSHAKE_PROTOCOL_VERSION,
    id: ctx.mcpReq.id,
    sessionId: ctx.sessionId,
    params: (params ?? undefined) as Record<string, unknown> | undefined,
    headers: request?.headers,
    transport: request === undefined ? undefined : 'tcp',
  });
}

/** The reply, told to its trace (when there is one), as the SDK handler's return value. */
function settleTraced(trace: RequestTrace | undefined, reply: RoundReply): never {
  trace?.end(reply);
  return settle(reply);
}

/** A reply as the SDK handler's return value (or throw). */
function settle(reply: RoundReply): never {
  if (reply.kind === 'error')
    throw new ProtocolError(reply.error.code, reply.error.message, reply.error.data);
  return reply.result as never;
}

/** Where a finished call's result rides to the SDK's check of it (see `SessionServer`). */
const FINISHED: unique symbol = Symbol('parley.finishedToolResult');

/**
 * The SDK's `Server`, with `tools/call` checked around the call rather than awaiting it:
 *
 * - a call that asked for a task (`params.task`) answers with the task (`{ task }`,
 *   2025-11-25's CreateTaskResult), which the SDK's check of a tool result would refuse; Parley
 *   checks that call's params and builds that result itself;
 * - any other call runs first, and the SDK's check (of the request, then of the result) runs on
 *   the result once there is one. The SDK's check is two async functions awaiting the handler:
 *   around a call waiting on its user (a pending `ctx.elicit`) that is two suspended frames
 *   held for minutes, by every such call.
 */
class SessionServer extends HookedServer {
  protected override parleyWrapHandler(
    method: string,
    handler: SdkRequestHandler,
    sdkWrap: SdkWrap,
  ): SdkRequestHandler {
    if (method !== 'tools/call') return sdkWrap(method, handler);
    const check = sdkWrap(method, (_request, ctx) =>
      Promise.resolve((ctx as { [FINISHED]?: unknown })[FINISHED] as never),
    );
    return (request, ctx) => {
      if ((request.params as { task?: unknown } | undefined)?.task !== undefined) {
        return handler(request, ctx);
      }
      let served: ReturnType<SdkRequestHandler>;
      try {
        // The SDK's request check comes first, and throws at once, as its own check would.
        served = handler(request, ctx);
      } catch (error) {
        if (error instanceof ProtocolError) throw error;
        throw new ProtocolError(
          JSON_RPC_ERROR_CODES.invalidParams,
          `Invalid tools/call request: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      return served.then((result) => check(request, { ...ctx, [FINISHED]: result } as typeof ctx));
    };
  }
}

/** Build the SDK server of one handshake-era session. */
export function buildSessionServer(runtime: ServerRuntime, options: SessionOptions = {}): Server {
  const tasks = hasTaskTools(runtime);
  const server = new SessionServer(runtime.info, {
    capabilities: {
      ...capabilitiesOf(runtime),
      ...(tasks ? { tasks: handshakeTasksCapability() } : {}),
    },
    ...(runtime.instructions !== undefined ? { instructions: runtime.instructions } : {}),
    // The era gate is Parley's (round/serveRound.ts), never the SDK's shim: ctx.ask is the one
    // code path for both eras.
    inputRequired: { legacyShim: false },
  });
  const { authInfo } = options;
  if (options.firstRequestId !== undefined) startRequestIdsAt(server, options.firstRequestId);
  // Without an HTTP session (stdio, in memory) `tasks/list` lists this connection's tasks.
  // Made when first needed: an HTTP session has an id of its own.
  let connectionId: string | undefined;
  const connection = () => (connectionId ??= `connection-${randomUUID()}`);

  // One per session, not one per call.
  const projectToolResult: RoundRequest['projectToolResult'] = (result, outputJsonSchema) =>
    server.projectCallToolResult(result as never, outputJsonSchema as never) as never;

  const serveCall = (
    method: RoundMethod,
    params: Record<string, unknown>,
    ctx: ServerContext,
    call: TrackedCall | undefined,
    trace: RequestTrace | undefined,
  ): Promise<RoundReply> => {
    const progressToken = ctx.mcpReq._meta?.progressToken;
    // With a token, the call's progress: the handler's, and notices while it waits on a person.
    const progress =
      progressToken === undefined
        ? undefined
        : new CallProgress(
            ctx.mcpReq.notify as ProgressNotify,
            progressToken,
            runtime.waitProgressMs,
          );
    const round: RoundRequest = {
      method,
      params,
      // Handshake-era clients do not retry with answers: ctx.ask awaits them within the run.
      inputResponses: undefined,
      requestState: undefined,
      request: facts(server, ctx, method, authInfo),
      signal: call === undefined ? ctx.mcpReq.signal : call.signal,
      // The SDK's own (an arrow function): no second closure per call around it.
      log: ctx.mcpReq.log as (level: LogLevel, data: unknown) => Promise<void>,
      progress: progress === undefined ? undefined : (...report) => progress.report(...report),
      push: pushChannel(server, ctx, options, call, progress),
      projectToolResult,
      trace,
    };
    return method === 'tools/call'
      ? serveToolCall(runtime, round, {
          era: 'handshake',
          task: params.task,
          session: ctx.sessionId ?? connection(),
          notify: (notification) => server.notification(notification as never),
        })
      : serveRound(runtime, round);
  };

  const round = (method: RoundMethod) =>
    server.setRequestHandler(method, (request, ctx) => {
      const { _meta: _ignored, ...params } = (request.params ?? {}) as Record<string, unknown>;
      const call = options.calls?.begin(ctx.mcpReq.signal, ctx.mcpReq.id);
      const traced = traceOf(runtime, server, ctx, method, request.params);
      // A chain, not an async function: a call waiting on its user holds no frame here. (The
      // pipeline's functions are async: nothing above throws before `call.end` is arranged.)
      const serve = (trace: RequestTrace | undefined) =>
        serveCall(method, params, ctx, call, trace).then(
          trace === undefined ? settle : (reply) => settleTraced(trace, reply),
        );
      const served = traced instanceof Promise ? traced.then(serve) : serve(traced);
      return call === undefined ? served : served.finally(() => call.end());
    });

  const list = (method: ListMethod) =>
    server.setRequestHandler(method, async (request, ctx) => {
      const trace = await traceOf(runtime, server, ctx, method, request.params);
      const reply = await serveList(
        runtime,
        method,
        request.params,
        facts(server, ctx, method, authInfo),
      );
      return settleTraced(trace, reply);
    });

  if (runtime.tools.size > 0) {
    list('tools/list');
    round('tools/call');
  }
  if (tasks) {
    for (const method of ['tasks/get', 'tasks/list', 'tasks/cancel', 'tasks/result'] as const) {
      // The SDK's typings leave the 2025-11-25 task methods out; its 2025 codec parses them.
      const register = server.setRequestHandler.bind(server) as unknown as (
        method: string,
        handler: (request: { params?: unknown }, ctx: ServerContext) => Promise<never>,
      ) => void;
      register(method, async (request, ctx) => {
        const { _meta: _ignored, ...params } = (request.params ?? {}) as Record<string, unknown>;
        // The task's questions go to the client as requests on this `tasks/result` stream.
        const push: PushQuestion = (question, meta, signal) =>
          ctx.mcpReq.send(
            { method: question.method, params: withMeta(question.params, meta) } as never,
            AS_SENT,
            { signal, timeout: QUESTION_TIMEOUT_MS },
          ) as Promise<unknown>;
        const trace = await traceOf(runtime, server, ctx, method, request.params);
        const reply = await serveHandshakeTaskMethod(
          runtime.tasks,
          method,
          params,
          { principal: authInfo?.clientId, sessionId: ctx.sessionId ?? connection() },
          { push, signal: ctx.mcpReq.signal },
        );
        return settleTraced(
          trace,
          reply ?? { kind: 'error', error: jsonRpcError('methodNotFound', 'Method not found') },
        );
      });
    }
  }
  if (runtime.prompts.size > 0) {
    list('prompts/list');
    round('prompts/get');
  }
  if (hasResources(runtime)) {
    list('resources/list');
    list('resources/templates/list');
    round('resources/read');
    server.setRequestHandler('resources/subscribe', (request) => {
      runtime.changes.subscribe(server, request.params.uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', (request) => {
      runtime.changes.unsubscribe(server, request.params.uri);
      return {};
    });
  }
  if (runtime.prompts.size > 0 || runtime.templates.length > 0) {
    server.setRequestHandler('completion/complete', async (request, ctx) => {
      const trace = await traceOf(runtime, server, ctx, 'completion/complete', request.params);
      return settleTraced(
        trace,
        await complete(runtime.prompts, runtime.templates, request.params),
      );
    });
  }
  runtime.changes.track(server);
  return server;
}
