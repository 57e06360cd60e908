import { UnsupportedCapabilityError } from '@parley/core';
import type { AuthInfo, LegacyHttpHandler, ServerNotifier } from '@modelcontextprotocol/server';

import { ModernDispatcher } from '../modern/dispatcher.ts';
import { claimsEnvelope, isServedModernVersion } from '../modern/envelope.ts';
import type { HeaderReader } from '../modern/headers.ts';
import type { ServerRuntime } from '../runtime/serverRuntime.ts';
import { loadSessionServer } from '../handshake/load.ts';
import { loadSdk } from '../utils/loadSdk.ts';
import { createBearerGate, type BearerGate, type HttpAuthOptions } from './bearerAuth.ts';
import { readWebBody, type BodyRead } from './bodyReader.ts';
import { createMemoryEventStore, type EventStore } from './eventStore.ts';
import { HostCheck } from './hostCheck.ts';
import { ListenStreams } from './listenStreams.ts';
import { BodyBudget, endpointLimits, type EndpointLimits } from './limits.ts';
import { answerModern } from './modernReply.ts';
import type { ParamHeader } from '../handler/paramHeaders.ts';
import { HandshakeSessions, type SessionRequest } from './sessions.ts';
import {
  errorJson,
  errorReply,
  SSE_HEADERS,
  type EventSink,
  type Inbound,
  type Reply,
  type Responder,
} from './wire.ts';

/**
 * One HTTP endpoint for both eras, whatever hosts it (`node:http`, a `(req, res)` framework, a
 * web-standard `fetch` runtime): the hosts adapt their request to an {@link Inbound} and answer
 * through a {@link Responder}; everything else is here.
 *
 * Modern (2026-07-28) requests are served statelessly by Parley's own dispatcher: parsed once,
 * checked cheaply, answered with one JSON body. Handshake-era clients get real sessions
 * (`Mcp-Session-Id`), an SDK server each (loaded with the first of them) on Parley's session
 * transport, so a tool's `ctx.elicit()` rides the call's SSE stream as a genuine server→client request. Without
 * sessions, handshake-era requests are still served, but a handler that asks the client gets an
 * error that says why.
 *
 * Bad input of any kind gets a `4xx` with a JSON-RPC error that names the problem.
 */

/** HTTP behaviour of a Parley server (`mcp.fetch`, `mcp.nodeHandler`, `mcp.run({ transport: 'http' })`). */
export interface HttpOptions {
  /** Give handshake-era clients sessions, so `ctx.elicit()` works over HTTP. Default `true`. */
  sessions?: boolean;
  /** A session with no open stream and no request for this long is closed. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** The most handshake-era sessions open at once; past it `initialize` gets `503`. Default 10 000. */
  maxSessions?: number;
  /**
   * A session whose calls lost their stream (the client went away mid-call) and got no stream
   * back within this is closed, and a pending `ctx.elicit()` of it rejects with a
   * `SessionClosedError`. Default 30 000.
   */
  streamResumeWindowMs?: number;
  /**
   * Where handshake-era SSE events are kept so a client whose stream drops can resume it with
   * `Last-Event-ID`: default a bounded store in memory ({@link createMemoryEventStore}); `false`
   * turns resumability off.
   */
  eventStore?: EventStore | false;
  /** The SSE `retry` (ms) clients are told to wait before reconnecting a stream. Default 1 000. */
  sseRetryMs?: number;
  /**
   * Accepted `Host` header names (DNS-rebinding protection). `run()` on a loopback host defaults
   * to the localhost names; `fetch()` and `nodeHandler()` check nothing unless you list names.
   */
  allowedHosts?: string[];
  /** Accepted `Origin` host names; defaults follow `allowedHosts`. */
  allowedOrigins?: string[];
  /** The largest request body accepted (`413` past it, even when chunked). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * The most request-body bytes held in memory at once, across all requests being read; a
   * request that would pass it gets `503` with `Retry-After`. Default 64 MiB.
   */
  maxBufferedBodyBytes?: number;
  /**
   * Require a principal: a bearer token on every request, checked by `verifyToken`; sealed state
   * is bound to the principal it returns. See {@link HttpAuthOptions}.
   */
  auth?: HttpAuthOptions;
}

/** Per-request inputs of the fetch handler. */
export interface FetchOptions {
  /**
   * A principal the host already authenticated; it binds sealed state to that user (and
   * `http.auth` is not asked again).
   */
  authInfo?: AuthInfo;
}

/** Why a handshake-era request served without a session cannot ask the client anything. */
function sessionlessPush(): UnsupportedCapabilityError {
  return new UnsupportedCapabilityError(
    { feature: 'elicitation', requiredCapabilities: { elicitation: { form: {} } } },
    {
      message:
        'This request cannot reach the client: server-initiated requests (ctx.elicit, ctx.sample, ctx.listRoots) need an ' +
        'MCP session, and this server serves handshake-era HTTP requests without sessions. Enable sessions ' +
        '(http.sessions), or have the client use the modern protocol (2026-07-28) with the guard pattern.',
    },
  );
}

/** The methods anything here answers (`OPTIONS`: the OAuth metadata's CORS preflight). */
const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'DELETE', 'OPTIONS']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `application/json`, with or without parameters. */
function isJsonContentType(value: string | null): boolean {
  if (value === null) return false;
  if (value === 'application/json') return true;
  const type = value.split(';', 1)[0]?.trim().toLowerCase();
  return type === 'application/json';
}

/** Is a parsed body modern traffic? By its envelope claim, or by a modern version header. */
function isModernBody(body: unknown, versionHeader: string | null): boolean {
  if (claimsEnvelope(body)) return true;
  if (versionHeader === null || !isServedModernVersion(versionHeader.trim())) return false;
  // A modern header on a body without the envelope: the modern path refuses it clearly, unless
  // it is the legacy handshake itself.
  const method = (body as { method?: unknown } | null)?.method;
  return typeof method === 'string' && method !== 'initialize';
}

/** Why a message is not a JSON-RPC 2.0 message at all, or `undefined`. */
function notJsonRpc(message: unknown): string | undefined {
  if (!isRecord(message)) return 'the body is not a JSON-RPC 2.0 message (an object)';
  if (message.jsonrpc !== '2.0') return 'the message lacks "jsonrpc": "2.0"';
  if (message.method !== undefined && typeof message.method !== 'string') {
    return 'the method must be a string';
  }
  if (message.method === undefined && !('result' in message) && !('error' in message)) {
    return 'the message is neither a request, a notification nor a response';
  }
  return undefined;
}

/** Why an `initialize` request is malformed, or `undefined`. */
function initializeProblem(message: Record<string, unknown>): string | undefined {
  const params = message.params;
  if (!isRecord(params)) return 'initialize needs params (an object)';
  if (typeof params.protocolVersion !== 'string') return 'params.protocolVersion must be a string';
  if (!isRecord(params.capabilities)) return 'params.capabilities must be an object';
  const info = params.clientInfo;
  if (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
    return 'params.clientInfo must be { name, version } (strings)';
  }
  if (!('id' in message)) return 'initialize is a request: it needs an id';
  return undefined;
}

/** The `id` to echo on an error about a message, when it has a usable one. */
function idOf(message: unknown): string | number | null {
  const id = isRecord(message) ? message.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The answer to a body the endpoint could not read. */
export function unreadableReply(read: Exclude<BodyRead, { kind: 'body' }>, max: number): Reply {
  switch (read.kind) {
    case 'too-large':
      return errorReply(413, -32600, `Request body too large: the limit is ${max} bytes`, {
        connection: 'close',
      });
    case 'busy':
      return errorReply(
        503,
        -32000,
        'Service Unavailable: the server is reading as many request bodies as it may; try again',
        { 'retry-after': '1' },
      );
    case 'unreadable':
      return errorReply(400, -32700, `Parse error: ${read.reason}`);
  }
}

export class HttpEndpoint {
  readonly limits: EndpointLimits;
  /** Request-body bytes held now, across every host adapter of this endpoint. */
  readonly budget: BodyBudget;
  readonly #runtime: ServerRuntime;
  readonly #sessionsEnabled: boolean;
  readonly #dispatcher: ModernDispatcher;
  readonly #sessions: HandshakeSessions;
  readonly #hosts: HostCheck | undefined;
  readonly #auth: BearerGate | undefined;
  /** The modern `subscriptions/listen` streams: list changes, resource updates, task states. */
  readonly #listen: ListenStreams;
  #stateless: Promise<LegacyHttpHandler> | undefined;
  /** This process's tasks being marked `failed` (the server stops), once a drain began. */
  #tasksClosed: Promise<void> | undefined;
  readonly #report: (error: unknown) => void;

  constructor(
    runtime: ServerRuntime,
    options: HttpOptions = {},
    paramHeaders: (tool: string) => readonly ParamHeader[] = () => [],
    report: (error: unknown) => void = () => {},
  ) {
    this.#runtime = runtime;
    this.#report = report;
    this.limits = endpointLimits(options);
    this.budget = new BodyBudget(this.limits.maxBufferedBodyBytes);
    this.#auth = options.auth === undefined ? undefined : createBearerGate(options.auth, report);
    this.#sessionsEnabled = options.sessions !== false;
    this.#dispatcher = new ModernDispatcher(runtime, paramHeaders);
    this.#listen = new ListenStreams(runtime);
    const store = options.eventStore === undefined ? createMemoryEventStore() : options.eventStore;
    this.#sessions = new HandshakeSessions(runtime, {
      limits: this.limits,
      eventStore: store === false ? undefined : store,
    });
    const hosts = options.allowedHosts;
    this.#hosts =
      hosts === undefined ? undefined : new HostCheck(hosts, options.allowedOrigins ?? hosts);
  }

  /** Announces changes on the modern `subscriptions/listen` streams of this endpoint. */
  get notify(): ServerNotifier {
    return this.#listen.notify;
  }

  /** How many handshake-era sessions are open. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Handshake-era calls in flight. */
  get callsInFlight(): number {
    return this.#sessions.callsInFlight;
  }

  /** Serve one request, read by a host adapter. Never throws: a bug is a bare `500`. */
  async serve(inbound: Inbound, responder: Responder): Promise<void> {
    try {
      await this.#serve(inbound, responder);
    } catch (error) {
      this.#report(error);
      responder.send(errorReply(500, -32603, 'Internal error'));
    }
  }

  /** The web-standard face: a `Request` in, a `Response` out. */
  async fetch(request: Request, options: FetchOptions = {}): Promise<Response> {
    let body: Inbound['body'];
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'DELETE') {
      const read = await readWebBody(request, this.limits.maxBodyBytes, this.budget);
      if (read.kind !== 'text') return webReply(unreadableReply(read, this.limits.maxBodyBytes));
      body = { text: read.text };
    }
    const { responder, response } = webResponder();
    void this.serve(
      {
        method: request.method,
        headers: request.headers,
        body,
        signal: request.signal,
        authInfo: options.authInfo,
        toRequest: () => request,
      },
      responder,
    );
    return response;
  }

  /**
   * Stop taking new work: calls waiting on their client get an error now, new sessions are
   * refused, the notification streams close (their clients reconnect elsewhere), and the tasks
   * this process runs end `failed` at once, saying the server stopped (a task cannot move to
   * another replica, and its clients should not wait for a lease to run out to learn that).
   */
  drain(): void {
    this.#tasksClosed ??= this.#runtime.tasks.close();
    this.#sessions.drain();
    this.#listen.closeAll();
  }

  /** Close every session and stream. */
  async close(): Promise<void> {
    this.#tasksClosed ??= this.#runtime.tasks.close();
    await this.#tasksClosed;
    await this.#sessions.close();
    this.#listen.closeAll();
  }

  async #serve(inbound: Inbound, responder: Responder): Promise<void> {
    const refused = this.#hosts?.refuse(inbound.headers);
    if (refused !== undefined) return responder.send(refused);
    if (!SERVED_METHODS.has(inbound.method)) return responder.send(this.#notAllowed(inbound));
    let authInfo = inbound.authInfo;
    if (this.#auth !== undefined && authInfo === undefined) {
      const request = inbound.toRequest();
      const metadata = this.#auth.metadata(request);
      if (metadata !== undefined) return responder.web(metadata);
      const principal = await this.#auth.authenticate(request);
      if (principal instanceof Response) return responder.web(principal);
      authInfo = principal;
    }
    const sessionId = inbound.headers.get('mcp-session-id');
    if (inbound.method === 'POST') return this.#post(inbound, authInfo, sessionId, responder);
    if ((inbound.method === 'GET' || inbound.method === 'DELETE') && this.#sessionsEnabled) {
      if (sessionId !== null) {
        return this.#sessions.serve(
          sessionId,
          sessionRequest(inbound),
          undefined,
          authInfo,
          responder,
        );
      }
    }
    responder.send(this.#notAllowed(inbound));
  }

  #notAllowed(inbound: Inbound): Reply {
    return errorReply(405, -32000, `Method not allowed: ${inbound.method.slice(0, 32)}`, {
      allow: this.#sessionsEnabled ? 'GET, POST, DELETE' : 'POST',
    });
  }

  async #post(
    inbound: Inbound,
    authInfo: AuthInfo | undefined,
    sessionId: string | null,
    responder: Responder,
  ): Promise<void> {
    if (!isJsonContentType(inbound.headers.get('content-type'))) {
      return responder.send(
        errorReply(415, -32600, 'Unsupported Media Type: Content-Type must be application/json'),
      );
    }
    let message: unknown;
    const body = inbound.body;
    if (body === undefined || ('text' in body && body.text.length === 0)) {
      return responder.send(errorReply(400, -32700, 'Parse error: the body is empty'));
    }
    if ('text' in body) {
      try {
        message = JSON.parse(body.text);
      } catch {
        return responder.send(errorReply(400, -32700, 'Parse error: the body is not JSON'));
      }
    } else message = body.parsed;

    if (Array.isArray(message)) {
      if (message.some((entry) => claimsEnvelope(entry))) {
        return responder.send(
          errorReply(
            400,
            -32600,
            'Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later',
          ),
        );
      }
      const bad =
        message.length === 0 ? 'the batch is empty' : message.map(notJsonRpc).find(Boolean);
      if (bad !== undefined)
        return responder.send(errorReply(400, -32600, `Invalid Request: ${bad}`));
    } else if (isModernBody(message, inbound.headers.get('mcp-protocol-version'))) {
      if ((message as { method?: unknown }).method === 'subscriptions/listen') {
        return this.#openListen(inbound, message, authInfo, responder);
      }
      return answerModern(this.#dispatcher, message, inbound, authInfo, responder);
    } else {
      const bad = notJsonRpc(message);
      if (bad !== undefined) {
        return responder.send({
          status: 400,
          json: errorJson(-32600, `Invalid Request: ${bad}`, idOf(message)),
        });
      }
    }

    if (!this.#sessionsEnabled) {
      const stateless = await this.#statelessHandler();
      return responder.web(
        await stateless(inbound.toRequest(), {
          parsedBody: message,
          ...(authInfo !== undefined ? { authInfo } : {}),
        }),
      );
    }
    if (sessionId !== null) {
      return this.#sessions.serve(sessionId, sessionRequest(inbound), message, authInfo, responder);
    }
    const record = message as Record<string, unknown>;
    if (!Array.isArray(message) && record.method === 'initialize') {
      const problem = initializeProblem(record);
      if (problem !== undefined) {
        return responder.send({
          status: 400,
          json: errorJson(-32602, `Invalid params: ${problem}`, idOf(message)),
        });
      }
      return this.#sessions.open(sessionRequest(inbound), message, authInfo, responder);
    }
    responder.send({
      status: 400,
      json: errorJson(
        -32600,
        'Bad Request: handshake-era requests need an Mcp-Session-Id (send initialize first)',
        idOf(message),
      ),
    });
  }

  async #openListen(
    inbound: Inbound,
    message: unknown,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    const checked = this.#dispatcher.check(message, inbound.headers);
    if ('status' in checked) {
      return responder.send(
        checked.message === undefined
          ? { status: checked.status }
          : { status: checked.status, json: JSON.stringify(checked.message) },
      );
    }
    const refused = await this.#listen.open({
      request: checked,
      principal: authInfo?.clientId,
      get signal() {
        return inbound.signal;
      },
      events: () => responder.events(),
    });
    if (refused !== undefined) responder.send(refused);
  }

  #statelessHandler(): Promise<LegacyHttpHandler> {
    this.#stateless ??= Promise.all([loadSdk(), loadSessionServer()]).then(
      ([sdk, { buildSessionServer }]) =>
        sdk.legacyStatelessFallback(
          (unit) =>
            buildSessionServer(this.#runtime, {
              authInfo: unit.authInfo,
              pushUnavailable: sessionlessPush,
            }),
          undefined,
          { maxRequestBodySize: this.limits.maxBodyBytes },
        ),
    );
    return this.#stateless;
  }
}

/** What a session keeps of a request (not its body, not its signal: see `SessionRequest`). */
function sessionRequest(inbound: Inbound): SessionRequest {
  return { method: inbound.method, headers: inbound.headers };
}

/** A whole answer as a web `Response`. */
export function webReply(reply: Reply): Response {
  return new Response(reply.json ?? null, {
    status: reply.status,
    headers: {
      ...(reply.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...reply.headers,
    },
  });
}

const encoder = new TextEncoder();

/** A responder whose answer is a web `Response`. */
function webResponder(): { responder: Responder; response: Promise<Response> } {
  let resolve!: (response: Response) => void;
  const response = new Promise<Response>((settle) => (resolve = settle));
  return {
    response,
    responder: {
      send: (reply) => resolve(webReply(reply)),
      web: (reply) => resolve(reply),
      events: (headers, gone): EventSink => {
        let controller!: ReadableStreamDefaultController<Uint8Array>;
        const body = new ReadableStream<Uint8Array>({
          start: (start) => void (controller = start),
          cancel: () => gone?.(),
        });
        resolve(new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } }));
        return {
          write: (text) => {
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              // The client went away; the request's signal tells the handler.
            }
          },
          end: () => {
            try {
              controller.close();
            } catch {
              // Cancelled by the client.
            }
          },
        };
      },
    },
  };
}

/** Node's request headers as a reader (Node keeps their names in lower case). */
export class NodeHeaders implements HeaderReader {
  readonly #headers: Record<string, string | string[] | undefined>;

  constructor(headers: Record<string, string | string[] | undefined>) {
    this.#headers = headers;
  }

  get(name: string): string | null {
    const value = this.#headers[name] ?? this.#headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}
