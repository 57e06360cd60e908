import {
  JSON_RPC_ERROR_CODES,
  MODERN_PROTOCOL_VERSIONS,
  type JsonRpcErrorObject,
} from '@parley/core';
import type { AuthInfo } from '@modelcontextprotocol/server';

import { complete } from '../runtime/completion.ts';
import type { LogLevel, RequestContext } from '../handler/contextTypes.ts';
import { paramHeaderMismatch, type ParamHeader } from '../handler/paramHeaders.ts';
import { serveList, type ListMethod } from '../runtime/lists.ts';
import type { RoundReply, RoundRequest } from '../round/request.ts';
import { serveRound } from '../round/serveRound.ts';
import type { RoundMethod } from '../round/targets.ts';
import { capabilitiesOf, hasResources, type ServerRuntime } from '../runtime/serverRuntime.ts';
import { tasksExtensionCapability } from '../tasks/modernWire.ts';
import { serveModernTaskMethod } from '../tasks/serveTasks.ts';
import { hasTaskTools, serveToolCall } from '../tasks/taskCalls.ts';
import { encodeResult } from './encode.ts';
import { metaOf, readEnvelope, type Envelope } from './envelope.ts';
import { checkHeaders, mcpNameProblem, mirroredHeaders, type HeaderReader } from './headers.ts';

/**
 * The modern era (2026-07-28), served by Parley itself: one JSON-RPC request in, one response
 * out, with no SDK server in between. The request's validation ladder (JSON-RPC shape, the
 * `_meta` envelope, the protocol version, the HTTP headers that mirror the body), then the
 * method: discovery, the lists, completion, or a round of the pipeline.
 */

/** A JSON-RPC message this dispatcher sends. */
export type JsonRpcOut =
  | { jsonrpc: '2.0'; id: string | number | null; result: Record<string, unknown> }
  | { jsonrpc: '2.0'; id: string | number | null; error: JsonRpcErrorObject }
  | { jsonrpc: '2.0'; method: string; params: Record<string, unknown> };

/** What the transport a request came over gives the dispatcher. */
export interface ModernTransport {
  /** HTTP only: request headers (the header rules of SEP-2243 apply only when present). */
  headers?: HeaderReader;
  /** A principal the host already authenticated. */
  authInfo?: AuthInfo | undefined;
  /**
   * Aborted when the client cancels the request or goes away. Read only when needed (it may be a
   * getter that makes the signal then), so pass it on by getter, never by copying.
   */
  readonly signal: AbortSignal;
  /** Send a notification related to the request (progress, log). */
  notify(message: JsonRpcOut): void;
}

/** A request that passed the validation ladder: its id, method, params and envelope. */
export interface CheckedRequest {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
  envelope: Envelope;
}

/** The dispatcher's answer: the message to send (none for a notification) and its HTTP status. */
export interface ModernReply {
  status: number;
  message?: JsonRpcOut;
}

const LEVELS: readonly LogLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function errorReply(
  status: number,
  id: string | number | null,
  code: number,
  message: string,
  data?: unknown,
): ModernReply {
  return {
    status,
    message: {
      jsonrpc: '2.0',
      id,
      error: { code, message, ...(data !== undefined ? { data } : {}) },
    },
  };
}

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
    if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
      return errorReply(
        400,
        null,
        JSON_RPC_ERROR_CODES.invalidRequest,
        'Invalid Request: not a JSON-RPC 2.0 request',
      );
    }
    const { method } = message;
    if (!('id' in message)) return { status: 202 }; // a notification: acknowledged, nothing to run
    const { id } = message;
    if (typeof id !== 'string' && typeof id !== 'number') {
      return errorReply(
        400,
        null,
        JSON_RPC_ERROR_CODES.invalidRequest,
        'Invalid Request: the id must be a string or a number',
      );
    }
    if (message.params !== undefined && !isRecord(message.params)) {
      return errorReply(
        400,
        id,
        JSON_RPC_ERROR_CODES.invalidRequest,
        'Invalid Request: params must be an object',
      );
    }
    const params = (message.params ?? {}) as Record<string, unknown>;
    const meta = metaOf(message);

    // The mirrored headers are read once; the mismatches are checked before the envelope, the
    // missing ones once the envelope is known to be valid.
    const mirrored = headers === undefined ? undefined : mirroredHeaders(headers);
    if (mirrored !== undefined) {
      const mismatch = checkHeaders(mirrored, method, meta, 'present');
      if (mismatch !== undefined)
        return errorReply(400, id, -32020, mismatch.message, mismatch.data);
    }
    if (meta === undefined || !('io.modelcontextprotocol/protocolVersion' in meta)) {
      return errorReply(
        400,
        id,
        JSON_RPC_ERROR_CODES.invalidParams,
        'Invalid params: a protocol revision 2026-07-28 request must carry the per-request envelope in params._meta (io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities)',
        {
          envelope: {
            missing: meta === undefined ? ['_meta'] : ['io.modelcontextprotocol/protocolVersion'],
          },
        },
      );
    }
    const envelope = readEnvelope(meta);
    if ('problem' in envelope) {
      return errorReply(
        400,
        id,
        JSON_RPC_ERROR_CODES.invalidParams,
        `Invalid _meta envelope for protocol revision 2026-07-28: ${envelope.key}: ${envelope.problem}`,
        { envelope },
      );
    }
    if (!MODERN_PROTOCOL_VERSIONS.includes(envelope.protocolVersion)) {
      return errorReply(
        400,
        id,
        -32022,
        `Unsupported protocol version: ${envelope.protocolVersion}`,
        {
          supported: [...MODERN_PROTOCOL_VERSIONS],
          requested: envelope.protocolVersion,
        },
      );
    }
    if (headers !== undefined && mirrored !== undefined) {
      const missing = checkHeaders(mirrored, method, meta, 'required');
      if (missing !== undefined) return errorReply(400, id, -32020, missing.message, missing.data);
      const name = mcpNameProblem(headers, method, params);
      if (name !== undefined) return errorReply(400, id, -32020, name.message, name.data);
    }

    return { id, method, params, envelope };
  }

  /** Serve one message that claims (or, by its HTTP header, should carry) the envelope. */
  async handle(message: unknown, transport: ModernTransport): Promise<ModernReply> {
    const checked = this.check(message, transport.headers);
    if ('status' in checked) return checked;
    const { id, method, params, envelope } = checked;
    let reply: RoundReply | undefined;
    try {
      reply = await this.#dispatch(method, params, envelope, transport);
    } catch (error) {
      this.#runtime.report(error, { method, target: '-' });
      reply = {
        kind: 'error',
        error: { code: JSON_RPC_ERROR_CODES.internalError, message: 'Internal error' },
      };
    }
    if (reply === undefined) {
      return errorReply(404, id, JSON_RPC_ERROR_CODES.methodNotFound, 'Method not found');
    }
    if (reply.kind === 'error') {
      const { code } = reply.error;
      // Errors from the work itself are in-band; a missing client capability is 400 by the spec.
      const status = code === -32021 ? 400 : code === -32020 ? 400 : 200;
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

  /** Run a validated request; `undefined` for a method this server does not serve. */
  async #dispatch(
    method: string,
    params: Record<string, unknown>,
    envelope: Envelope,
    transport: ModernTransport,
  ): Promise<RoundReply | undefined> {
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
          capabilities: {
            ...capabilitiesOf(runtime),
            ...(hasTaskTools(runtime) ? tasksExtensionCapability() : {}),
          },
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
          error: { code: -32602, message: `Invalid params: ${method}'s cursor must be a string` },
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
    const { _meta: _envelope, inputResponses, requestState, ...rest } = params;
    const problem = roundParamsProblem(roundMethod, rest);
    if (problem !== undefined) {
      return { kind: 'error', error: { code: -32602, message: `Invalid params: ${problem}` } };
    }
    if (roundMethod === 'tools/call' && transport.headers !== undefined) {
      const declared = this.#paramHeaders(rest.name as string);
      const mismatch =
        declared.length === 0
          ? undefined
          : paramHeaderMismatch(transport.headers, rest.arguments, declared);
      if (mismatch !== undefined) {
        return { kind: 'error', error: { code: -32020, message: `Header mismatch: ${mismatch}` } };
      }
    }
    const round = new ModernRound(
      roundMethod,
      rest,
      inputResponses,
      requestState,
      request,
      envelope,
      transport,
    );
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

/**
 * One modern round as the pipeline gets it. A class, not an object literal: a literal with a
 * getter (the signal, read through so it is made only when something asks) is built slowly and
 * lands in dictionary mode, and this is made for every round.
 */
class ModernRound implements RoundRequest {
  readonly method: RoundMethod;
  readonly params: Record<string, unknown>;
  readonly inputResponses: unknown;
  readonly requestState: unknown;
  readonly request: RequestContext;
  readonly progress: RoundRequest['progress'];
  readonly push: undefined = undefined;
  readonly projectToolResult: RoundRequest['projectToolResult'] = appendTextFallback;
  readonly #envelope: Envelope;
  readonly #transport: ModernTransport;

  constructor(
    method: RoundMethod,
    params: Record<string, unknown>,
    inputResponses: unknown,
    requestState: unknown,
    request: RequestContext,
    envelope: Envelope,
    transport: ModernTransport,
  ) {
    this.method = method;
    this.params = params;
    this.inputResponses = inputResponses;
    this.requestState = requestState;
    this.request = request;
    this.#envelope = envelope;
    this.#transport = transport;
    const token = envelope.progressToken;
    // A function only when the request carries a progress token (few do).
    this.progress =
      token === undefined
        ? undefined
        : async (progress, total, message) =>
            transport.notify({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: {
                progressToken: token,
                progress,
                ...(total !== undefined ? { total } : {}),
                ...(message !== undefined ? { message } : {}),
              },
            });
  }

  get signal(): AbortSignal {
    return this.#transport.signal;
  }

  /**
   * A method, not a closure made per round: a closure over the transport, kept on every
   * round's request, made V8 keep each request's whole object graph (request, response, body)
   * through young-generation collections, which then cost more than the rest of the round.
   */
  async log(level: LogLevel, data: unknown): Promise<void> {
    const wanted = this.#envelope.logLevel;
    if (wanted === undefined || LEVELS.indexOf(level) < LEVELS.indexOf(wanted as LogLevel)) return;
    this.#transport.notify({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level, data },
    });
  }
}

/**
 * SEP-2106 on the modern wire: structured content is sent as it is; one that is not an object
 * also gets its JSON as text, for clients that read only `content`.
 */
function appendTextFallback<T extends { content: unknown[]; structuredContent?: unknown }>(
  result: T,
): T {
  const structured = result.structuredContent;
  if (structured === undefined || (isRecord(structured) && !Array.isArray(structured)))
    return result;
  const hasText = result.content.some((block) => isRecord(block) && block.type === 'text');
  if (hasText) return result;
  return {
    ...result,
    content: [...result.content, { type: 'text', text: JSON.stringify(structured) }],
  };
}
