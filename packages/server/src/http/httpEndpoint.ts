import { UnsupportedCapabilityError, checkOptionKeys } from '@parley/core';
import type { AuthInfo, LegacyHttpHandler, ServerNotifier } from '@modelcontextprotocol/server';

import { ModernDispatcher } from '../modern/dispatcher.ts';
import { claimsEnvelope } from '../modern/envelope.ts';
import type { ServerRuntime } from '../runtime/serverRuntime.ts';
import { loadSessionServer } from '../handshake/load.ts';
import { loadSdk } from '../utils/loadSdk.ts';
import { createBearerGate, type BearerGate } from './bearerAuth.ts';
import { readWebBody } from './bodyReader.ts';
import { createMemoryEventStore } from './eventStore.ts';
import { HostCheck } from './hostCheck.ts';
import { ListenStreams } from './listenStreams.ts';
import { BodyBudget, endpointLimits, type EndpointLimits } from './limits.ts';
import { answerModern } from './modernReply.ts';
import type { ParamHeader } from '../handler/paramHeaders.ts';
import {
  FETCH_OPTIONS,
  checkSessionOptions,
  type FetchOptions,
  type HttpOptions,
} from './httpOptions.ts';
import {
  SERVED_METHODS,
  acceptsAnswer,
  initializeProblem,
  isJsonContentType,
  isModernBody,
  notJsonRpc,
  unreadableReply,
} from './inboundChecks.ts';
import { HandshakeSessions, type SessionRequest } from './sessions.ts';
import { clientAddressOf } from './clientSessions.ts';
import { webReply, webResponder } from './webHost.ts';
import { errorReply, idOf } from '../modern/errorReply.ts';
import type { Inbound, Reply, Responder } from './wire.ts';

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
  /** The header a trusted proxy reports the client's address in (`http.clientAddressHeader`). */
  readonly #addressHeader: string | undefined;
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
    checkSessionOptions('ParleyServer: http', options);
    this.#addressHeader = options.clientAddressHeader?.toLowerCase();
    this.#sessions = new HandshakeSessions(runtime, {
      limits: this.limits,
      eventStore: store === false ? undefined : store,
      sessionStore: options.sessionStore,
      idPrefix: options.sessionIdPrefix,
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
      responder.send(errorReply('endpointFailure', 'Internal error'));
    }
  }

  /** The web-standard face: a `Request` in, a `Response` out. */
  async fetch(request: Request, options: FetchOptions = {}): Promise<Response> {
    checkOptionKeys('fetch', 'options', options, FETCH_OPTIONS);
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

  /**
   * The request's route. Not async functions (`serve` awaits them inside its `try`): a modern
   * round takes no frame here, and only what needs to wait (authentication, the SDK's stateless
   * fallback) does.
   */
  #serve(inbound: Inbound, responder: Responder): void | Promise<void> {
    const refused = this.#hosts?.refuse(inbound.headers);
    if (refused !== undefined) return responder.send(refused);
    if (!SERVED_METHODS.has(inbound.method)) return responder.send(this.#notAllowed(inbound));
    if (this.#auth !== undefined && inbound.authInfo === undefined) {
      return this.#authenticate(this.#auth, inbound, responder);
    }
    return this.#route(inbound, inbound.authInfo, responder);
  }

  async #authenticate(gate: BearerGate, inbound: Inbound, responder: Responder): Promise<void> {
    const request = inbound.toRequest();
    const metadata = gate.metadata(request);
    if (metadata !== undefined) return responder.web(metadata);
    const principal = await gate.authenticate(request);
    if (principal instanceof Response) return responder.web(principal);
    return this.#route(inbound, principal, responder);
  }

  #route(
    inbound: Inbound,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): void | Promise<void> {
    const sessionId = inbound.headers.get('mcp-session-id');
    if (inbound.method === 'POST') return this.#post(inbound, authInfo, sessionId, responder);
    if ((inbound.method === 'GET' || inbound.method === 'DELETE') && this.#sessionsEnabled) {
      if (sessionId !== null) {
        return this.#sessions.serve(
          sessionId,
          this.#sessionRequest(inbound),
          undefined,
          authInfo,
          responder,
        );
      }
    }
    responder.send(this.#notAllowed(inbound));
  }

  #notAllowed(inbound: Inbound): Reply {
    return errorReply('methodNotAllowed', `Method not allowed: ${inbound.method.slice(0, 32)}`, {
      headers: { allow: this.#sessionsEnabled ? 'GET, POST, DELETE' : 'POST' },
    });
  }

  #post(
    inbound: Inbound,
    authInfo: AuthInfo | undefined,
    sessionId: string | null,
    responder: Responder,
  ): void | Promise<void> {
    if (!isJsonContentType(inbound.headers.get('content-type'))) {
      return responder.send(
        errorReply(
          'unsupportedMediaType',
          'Unsupported Media Type: Content-Type must be application/json',
        ),
      );
    }
    if (!acceptsAnswer(inbound.headers.get('accept'))) {
      return responder.send(
        errorReply(
          'notAcceptable',
          'Not Acceptable: the answer is application/json or text/event-stream, and Accept allows neither',
        ),
      );
    }
    let message: unknown;
    const body = inbound.body;
    if (body === undefined || ('text' in body && body.text.length === 0)) {
      return responder.send(errorReply('parseError', 'Parse error: the body is empty'));
    }
    if ('text' in body) {
      try {
        message = JSON.parse(body.text);
      } catch {
        return responder.send(errorReply('parseError', 'Parse error: the body is not JSON'));
      }
    } else message = body.parsed;

    if (Array.isArray(message)) {
      if (message.some((entry) => claimsEnvelope(entry))) {
        return responder.send(
          errorReply(
            'invalidRequest',
            'Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later',
          ),
        );
      }
      const bad =
        message.length === 0 ? 'the batch is empty' : message.map(notJsonRpc).find(Boolean);
      if (bad !== undefined)
        return responder.send(errorReply('invalidRequest', `Invalid Request: ${bad}`));
    } else if (isModernBody(message, inbound.headers.get('mcp-protocol-version'))) {
      if ((message as { method?: unknown }).method === 'subscriptions/listen') {
        return this.#openListen(inbound, message, authInfo, responder);
      }
      return answerModern(this.#dispatcher, message, inbound, authInfo, responder);
    } else {
      const bad = notJsonRpc(message);
      if (bad !== undefined) {
        return responder.send(
          errorReply('invalidRequest', `Invalid Request: ${bad}`, { id: idOf(message) }),
        );
      }
    }

    if (!this.#sessionsEnabled) return this.#serveStateless(inbound, message, authInfo, responder);
    if (sessionId !== null) {
      return this.#sessions.serve(
        sessionId,
        this.#sessionRequest(inbound),
        message,
        authInfo,
        responder,
      );
    }
    const record = message as Record<string, unknown>;
    if (!Array.isArray(message) && record.method === 'initialize') {
      const problem = initializeProblem(record);
      if (problem !== undefined) {
        return responder.send(
          errorReply('malformedParams', `Invalid params: ${problem}`, { id: idOf(message) }),
        );
      }
      return this.#sessions.open(this.#sessionRequest(inbound), message, authInfo, responder);
    }
    responder.send(
      errorReply(
        'invalidRequest',
        'Bad Request: handshake-era requests need an Mcp-Session-Id (send initialize first)',
        { id: idOf(message) },
      ),
    );
  }

  /** A handshake-era request on an endpoint without sessions: the SDK's stateless fallback. */
  async #serveStateless(
    inbound: Inbound,
    message: unknown,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    const stateless = await this.#statelessHandler();
    responder.web(
      await stateless(inbound.toRequest(), {
        parsedBody: message,
        ...(authInfo !== undefined ? { authInfo } : {}),
      }),
    );
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

  /** What a session keeps of a request (not its body, not its signal: see `SessionRequest`). */
  #sessionRequest(inbound: Inbound): SessionRequest {
    return {
      method: inbound.method,
      headers: inbound.headers,
      clientAddress: clientAddressOf(inbound, this.#addressHeader),
    };
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
