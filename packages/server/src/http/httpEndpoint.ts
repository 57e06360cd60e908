import { UnsupportedCapabilityError } from '@parley/core';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isJsonContentType,
  isLegacyRequest,
  legacyStatelessFallback,
  originValidationResponse,
  readRequestBody,
  type AuthInfo,
  type LegacyHttpHandler,
  type McpHttpHandler,
  type Server,
  type ServerNotifier,
} from '@modelcontextprotocol/server';

import type { ServingUnit } from '../sdkServer.ts';
import { createBearerGate, type BearerGate, type HttpAuthOptions } from './bearerAuth.ts';
import { paramHeaderMismatch, type ParamHeader } from './paramHeaders.ts';

/**
 * One HTTP endpoint for both eras, as a web-standard `fetch` handler.
 *
 * Modern (2026-07-28) requests are served statelessly, one SDK server per request. Handshake-era
 * clients get real sessions (`Mcp-Session-Id`), so a tool's `ctx.elicit()` rides the call's SSE
 * stream as a genuine server→client request; sessions expire when idle and end on `DELETE`.
 * Without sessions, handshake-era requests are still served, but a handler that asks the client
 * gets an error that says why.
 */

/** HTTP behaviour of a Parley server (for `mcp.fetch` and `mcp.run({ transport: 'http' })`). */
export interface HttpOptions {
  /** Give handshake-era clients sessions, so `ctx.elicit()` works over HTTP. Default `true`. */
  sessions?: boolean;
  /** A session unused this long is closed. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /**
   * Accepted `Host` header names (DNS-rebinding protection). `run()` on a loopback host defaults
   * to the localhost names; `fetch()` checks nothing unless you list names.
   */
  allowedHosts?: string[];
  /** Accepted `Origin` host names; defaults follow `allowedHosts`. */
  allowedOrigins?: string[];
  /** The largest request body accepted. Default 4 MiB. */
  maxBodyBytes?: number;
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

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
  /** Who opened it: only they may use it. */
  principal: string | undefined;
}

const DEFAULT_IDLE_MS = 30 * 60_000;

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
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

export class HttpEndpoint {
  readonly #build: (unit: ServingUnit) => Server;
  readonly #paramHeaders: (tool: string) => readonly ParamHeader[];
  readonly #options: HttpOptions;
  readonly #modern: McpHttpHandler;
  readonly #stateless: LegacyHttpHandler;
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #auth: BearerGate | undefined;
  #lastSweep = Date.now();

  constructor(
    build: (unit: ServingUnit) => Server,
    options: HttpOptions = {},
    paramHeaders: (tool: string) => readonly ParamHeader[] = () => [],
    report: (error: unknown) => void = () => {},
  ) {
    this.#build = build;
    this.#auth = options.auth === undefined ? undefined : createBearerGate(options.auth, report);
    this.#paramHeaders = paramHeaders;
    this.#options = options;
    this.#idleMs = options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_MS;
    const maxRequestBodySize = options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
    this.#modern = createMcpHandler((unit) => build({ era: unit.era, authInfo: unit.authInfo }), {
      legacy: 'reject',
      maxRequestBodySize,
    });
    this.#stateless = legacyStatelessFallback(
      (unit) => build({ era: 'legacy', authInfo: unit.authInfo, pushUnavailable: sessionlessPush }),
      undefined,
      { maxRequestBodySize },
    );
  }

  /** Announces changes on the modern `subscriptions/listen` streams of this endpoint. */
  get notify(): ServerNotifier {
    return this.#modern.notify;
  }

  /** How many handshake-era sessions are open. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  async fetch(request: Request, fetchOptions: FetchOptions = {}): Promise<Response> {
    const rejected = this.#checkHostAndOrigin(request);
    if (rejected !== undefined) return rejected;
    let options = fetchOptions;
    if (this.#auth !== undefined && options.authInfo === undefined) {
      const metadata = this.#auth.metadata(request);
      if (metadata !== undefined) return metadata;
      const principal = await this.#auth.authenticate(request);
      if (principal instanceof Response) return principal;
      options = { ...options, authInfo: principal };
    }
    this.#sweepIdleSessions();
    const sessionId = request.headers.get('mcp-session-id');

    if (request.method === 'POST') {
      if (!isJsonContentType(request.headers.get('content-type'))) {
        return jsonRpcError(
          415,
          -32600,
          'Unsupported Media Type: Content-Type must be application/json',
        );
      }
      const body = await readRequestBody(
        request,
        this.#options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE,
      );
      if (body.tooLarge) return jsonRpcError(413, -32600, 'Request body too large');
      let parsedBody: unknown;
      try {
        parsedBody = JSON.parse(body.text);
      } catch {
        return jsonRpcError(400, -32700, 'Parse error: the body is not JSON');
      }
      // The body has been read: the handlers get it parsed, alongside the request's headers.
      const handlerOptions = {
        parsedBody,
        ...(options.authInfo !== undefined ? { authInfo: options.authInfo } : {}),
      };
      if (!(await isLegacyRequest(request, parsedBody))) {
        const mismatch = this.#paramHeaderMismatch(request, parsedBody);
        if (mismatch !== undefined) return mismatch;
        return this.#modern.fetch(request, handlerOptions);
      }
      if (this.#options.sessions === false) return this.#stateless(request, handlerOptions);
      if (sessionId !== null) return this.#inSession(sessionId, request, handlerOptions);
      if (isInitializeRequest(parsedBody)) return this.#newSession(request, handlerOptions);
      return jsonRpcError(
        400,
        -32600,
        'Bad Request: handshake-era requests need an Mcp-Session-Id (send initialize first)',
      );
    }

    if (
      (request.method === 'GET' || request.method === 'DELETE') &&
      sessionId !== null &&
      this.#options.sessions !== false
    ) {
      return this.#inSession(
        sessionId,
        request,
        options.authInfo !== undefined ? { authInfo: options.authInfo } : {},
      );
    }
    return new Response(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Method not allowed.' },
        id: null,
      }),
      {
        status: 405,
        headers: { 'content-type': 'application/json', allow: 'POST' },
      },
    );
  }

  /** Close every session. */
  async close(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
    await this.#modern.close();
  }

  async #newSession(
    request: Request,
    options: { parsedBody: unknown; authInfo?: AuthInfo },
  ): Promise<Response> {
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          const principal = options.authInfo?.clientId;
          this.#sessions.set(id, { transport, server, lastSeen: Date.now(), principal });
        },
        onsessionclosed: (id) => {
          this.#sessions.delete(id);
        },
      });
    const server = this.#build({ era: 'legacy', authInfo: options.authInfo });
    await server.connect(transport);
    return transport.handleRequest(request, options);
  }

  async #inSession(
    id: string,
    request: Request,
    options: { parsedBody?: unknown; authInfo?: AuthInfo },
  ): Promise<Response> {
    const session = this.#sessions.get(id);
    // Another principal's session reads as unknown: its id says nothing to anyone else.
    if (session === undefined || session.principal !== options.authInfo?.clientId) {
      return jsonRpcError(404, -32001, 'Session not found');
    }
    session.lastSeen = Date.now();
    return session.transport.handleRequest(request, options);
  }

  /** A 400 `-32020` when a modern `tools/call`'s `Mcp-Param-*` headers disagree with its body. */
  #paramHeaderMismatch(request: Request, body: unknown): Response | undefined {
    const message = body as {
      id?: unknown;
      method?: unknown;
      params?: { name?: unknown; arguments?: unknown };
    };
    if (message?.method !== 'tools/call' || typeof message.params?.name !== 'string')
      return undefined;
    const declared = this.#paramHeaders(message.params.name);
    if (declared.length === 0) return undefined;
    const problem = paramHeaderMismatch(request.headers, message.params.arguments, declared);
    if (problem === undefined) return undefined;
    return new Response(
      JSON.stringify({
        jsonrpc: '2.0',
        error: { code: -32020, message: `Header mismatch: ${problem}` },
        id: message.id ?? null,
      }),
      { status: 400, headers: { 'content-type': 'application/json' } },
    );
  }

  /** Close sessions idle for longer than the timeout (checked lazily, so no timers are needed). */
  #sweepIdleSessions(): void {
    const now = Date.now();
    if (now - this.#lastSweep < Math.min(this.#idleMs, 60_000)) return;
    this.#lastSweep = now;
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeen > this.#idleMs) {
        this.#sessions.delete(id);
        void session.server.close();
      }
    }
  }

  #checkHostAndOrigin(request: Request): Response | undefined {
    const hosts = this.#options.allowedHosts;
    if (hosts === undefined) return undefined;
    return (
      hostHeaderValidationResponse(request, hosts) ??
      originValidationResponse(request, this.#options.allowedOrigins ?? hosts)
    );
  }
}
