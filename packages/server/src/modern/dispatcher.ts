import {
  JSON_RPC_ERROR_CODES,
  MODERN_PROTOCOL_VERSIONS,
  httpStatusOfAnswer,
  isRecord,
  jsonRpcError,
} from '@parley/core';

import { complete } from '../runtime/completion.ts';
import type { RequestContext } from '../handler/contextTypes.ts';
import { paramHeaderMismatch, type ParamHeader } from '../handler/paramHeaders.ts';
import { serveList, type ListMethod } from '../runtime/lists.ts';
import type { RoundReply } from '../round/request.ts';
import { serveRound } from '../round/serveRound.ts';
import type { RequestTrace } from '../telemetry/requestTrace.ts';
import type { RoundMethod } from '../round/targets.ts';
import {
  capabilitiesOf,
  hasResources,
  withExtensions,
  type ServerRuntime,
} from '../runtime/serverRuntime.ts';
import { tasksExtensionCapability } from '../tasks/modernWire.ts';
import { serveModernTaskMethod } from '../tasks/serveTasks.ts';
import { hasTaskTools, serveToolCall } from '../tasks/taskCalls.ts';
import { encodeResult } from './encode.ts';
import { checkRequest } from './checkRequest.ts';
import { errorReply } from './errorReply.ts';
import type { Envelope } from './envelope.ts';
import type { HeaderReader } from './headers.ts';
import type { CheckedRequest, ModernReply, ModernTransport } from './messages.ts';
import { ModernRound } from './modernRound.ts';

/**
 * The modern era (2026-07-28), served by Parley itself: one JSON-RPC request in, one response
 * out, with no SDK server in between. The request's validation ladder (JSON-RPC shape, the
 * `_meta` envelope, the protocol version, the HTTP headers that mirror the body), then the
 * method: discovery, the lists, completion, or a round of the pipeline.
 */

const LIST_METHODS: ReadonlySet<string> = new Set([
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
]);

const ROUND_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Why a round method's params do not have the shape the method needs, or `undefined`. */
function roundParamsProblem(
  method: RoundMethod,
  params: Record<string, unknown>,
): string | undefined {
  if (method === 'resources/read') {
    return typeof params.uri === 'string'
      ? undefined
      : 'resources/read needs params.uri (a string)';
  }
  if (typeof params.name !== 'string') return `${method} needs params.name (a string)`;
  const args = params.arguments;
  if (args === undefined) return undefined;
  if (!isRecord(args)) return `${method} needs params.arguments to be an object`;
  if (
    method === 'prompts/get' &&
    !Object.values(args).every((value) => typeof value === 'string')
  ) {
    return 'prompts/get needs every argument to be a string';
  }
  return undefined;
}

export class ModernDispatcher {
  readonly #runtime: ServerRuntime;
  readonly #paramHeaders: (tool: string) => readonly ParamHeader[];

  constructor(runtime: ServerRuntime, paramHeaders: (tool: string) => readonly ParamHeader[]) {
    this.#runtime = runtime;
    this.#paramHeaders = paramHeaders;
  }

  /**
   * The request's validation ladder alone: the checked request, or the error reply. For
   * methods served outside {@link handle} (the `subscriptions/listen` stream).
   */
  check(message: unknown, headers: HeaderReader | undefined): ModernReply | CheckedRequest {
    return checkRequest(message, headers);
  }

  /** Serve one message that claims (or, by its HTTP header, should carry) the envelope. */
  async handle(message: unknown, transport: ModernTransport): Promise<ModernReply> {
    const checked = this.check(message, transport.headers);
    if ('status' in checked) return checked;
    const { id, method, params, envelope } = checked;
    const telemetry = this.#runtime.telemetry;
    let trace: RequestTrace | undefined;
    if (telemetry?.mayRecord) {
      const traced = telemetry.request({
        method,
        era: 'modern',
        protocolVersion: envelope.protocolVersion,
        id,
        params,
        headers: transport.headers,
        transport: transport.headers === undefined ? undefined : 'tcp',
      });
      trace = traced instanceof Promise ? await traced : traced;
    }
    let reply: RoundReply | undefined;
    try {
      reply = await this.#dispatch(method, params, envelope, transport, trace);
    } catch (error) {
      this.#runtime.report(error, { method, target: '-' });
      reply = { kind: 'error', error: jsonRpcError('internalError', 'Internal error') };
    }
    trace?.end(reply ?? { kind: 'error', error: { code: JSON_RPC_ERROR_CODES.methodNotFound } });
    if (reply === undefined) return errorReply('methodNotFound', 'Method not found', { id });
    if (reply.kind === 'error') {
      // The work's own errors are its answer (200), but for what MCP makes a 400 wherever it
      // comes from (a missing client capability, a header that disagrees with the body).
      const status = httpStatusOfAnswer(reply.error.code);
      return { status, message: { jsonrpc: '2.0', id, error: reply.error } };
    }
    return {
      status: 200,
      message: {
        jsonrpc: '2.0',
        id,
        result: encodeResult(method, reply.result, this.#runtime.info),
      },
    };
  }

  /**
   * Run a validated request; `undefined` for a method this server does not serve. Not an async
   * function (the caller awaits it inside its `try`): a round needs no frame here.
   */
  #dispatch(
    method: string,
    params: Record<string, unknown>,
    envelope: Envelope,
    transport: ModernTransport,
    trace: RequestTrace | undefined,
  ): RoundReply | undefined | Promise<RoundReply | undefined> {
    const runtime = this.#runtime;
    const request: RequestContext = {
      protocolVersion: envelope.protocolVersion,
      era: 'modern',
      method,
      clientCapabilities: envelope.clientCapabilities,
      clientInfo: envelope.clientInfo,
      sessionId: undefined,
      principal: transport.authInfo?.clientId,
    };
    if (method === 'server/discover') {
      return {
        kind: 'result',
        result: {
          supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
          capabilities: withExtensions(
            capabilitiesOf(runtime),
            hasTaskTools(runtime) ? tasksExtensionCapability() : {},
          ),
          ...(runtime.instructions !== undefined ? { instructions: runtime.instructions } : {}),
        },
      };
    }
    if (method.startsWith('tasks/')) {
      if (!hasTaskTools(runtime)) return undefined;
      return serveModernTaskMethod(runtime.tasks, method, params, {
        clientCapabilities: envelope.clientCapabilities,
        principal: request.principal,
      });
    }
    if (LIST_METHODS.has(method)) {
      if (!this.#serves(method)) return undefined;
      if (params.cursor !== undefined && typeof params.cursor !== 'string') {
        return {
          kind: 'error',
          error: jsonRpcError(
            'invalidParams',
            `Invalid params: ${method}'s cursor must be a string`,
          ),
        };
      }
      return serveList(runtime, method as ListMethod, params, request);
    }
    if (method === 'completion/complete') {
      if (runtime.prompts.size === 0 && runtime.templates.length === 0) return undefined;
      const { _meta: _envelope, ...rest } = params;
      return complete(runtime.prompts, runtime.templates, rest);
    }
    if (!ROUND_METHODS.has(method) || !this.#serves(method)) return undefined;
    const roundMethod = method as RoundMethod;
    // The params as they came, `_meta`, `inputResponses` and `requestState` included: the round
    // reads its name, URI and arguments by key, and a copy without the three (an object rest)
    // is a measurable share of a round.
    const problem = roundParamsProblem(roundMethod, params);
    if (problem !== undefined) {
      return { kind: 'error', error: jsonRpcError('invalidParams', `Invalid params: ${problem}`) };
    }
    if (roundMethod === 'tools/call' && transport.headers !== undefined) {
      const declared = this.#paramHeaders(params.name as string);
      const mismatch =
        declared.length === 0
          ? undefined
          : paramHeaderMismatch(transport.headers, params.arguments, declared);
      if (mismatch !== undefined) {
        return {
          kind: 'error',
          error: jsonRpcError('headerMismatch', `Header mismatch: ${mismatch}`),
        };
      }
    }
    const round = new ModernRound(roundMethod, params, request, envelope, transport, trace);
    return roundMethod === 'tools/call'
      ? serveToolCall(runtime, round, { era: 'modern' })
      : serveRound(runtime, round);
  }

  #serves(method: string): boolean {
    const runtime = this.#runtime;
    if (method.startsWith('tools/')) return runtime.tools.size > 0;
    if (method.startsWith('prompts/')) return runtime.prompts.size > 0;
    return hasResources(runtime);
  }
}
