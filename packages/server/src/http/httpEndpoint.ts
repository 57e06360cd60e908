import { UnsupportedCapabilityError } from '@parley/core';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  Server,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isJsonContentType,
  legacyStatelessFallback,
  originValidationResponse,
  readRequestBody,
  type AuthInfo,
  type LegacyHttpHandler,
  type McpHttpHandler,
  type ServerNotifier,
} from '@modelcontextprotocol/server';

import { ModernDispatcher } from '../modern/dispatcher.ts';
import { claimsEnvelope, isServedModernVersion } from '../modern/envelope.ts';
import { capabilitiesOf, type ServerRuntime } from '../runtime.ts';
import { buildSessionServer, type SessionOptions } from '../sdk/sessionServer.ts';
import { createBearerGate, type BearerGate, type HttpAuthOptions } from './bearerAuth.ts';
import { json, modernResponse } from './modernResponse.ts';
import type { ParamHeader } from './paramHeaders.ts';

/**
 * One HTTP endpoint for both eras, as a web-standard `fetch` handler.
 *
 * Modern (2026-07-28) requests are served statelessly by Parley's own dispatcher: no SDK server
 * is built for them. Handshake-era clients get real sessions (`Mcp-Session-Id`) on the SDK's
 * transport, so a tool's `ctx.elicit()` rides the call's SSE stream as a genuine server→client
 * request; sessions expire when idle and end on `DELETE`. Without sessions, handshake-era
 * requests are still served, but a handler that asks the client gets an error that says why.
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
  return json(status, { jsonrpc: '2.0', error: { code, message }, id: null });
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
  readonly #runtime: ServerRuntime;
  readonly #options: HttpOptions;
  readonly #dispatcher: ModernDispatcher;
  /** The SDK's handler, kept only for `subscriptions/listen` streams (and their `notify`). */
  readonly #listen: McpHttpHandler;
  readonly #stateless: LegacyHttpHandler;
  readonly #sessions = new Map<string, Session>();
  readonly #idleMs: number;
  readonly #auth: BearerGate | undefined;
  #lastSweep = Date.now();

  constructor(
    runtime: ServerRuntime,
    options: HttpOptions = {},
    paramHeaders: (tool: string) => readonly ParamHeader[] = () => [],
    report: (error: unknown) => void = () => {},
  ) {
    this.#runtime = runtime;
    this.#auth = options.auth === undefined ? undefined : createBearerGate(options.auth, report);
    this.#options = options;
    this.#idleMs = options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_MS;
    this.#dispatcher = new ModernDispatcher(runtime, paramHeaders);
    const maxRequestBodySize = options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
    // A listen stream only needs what the server can announce: a server with capabilities and
    // no handlers, built per stream.
    this.#listen = createMcpHandler(
      () => new Server(runtime.info, { capabilities: capabilitiesOf(runtime) }),
      { legacy: 'reject', maxRequestBodySize },
    );
    this.#stateless = legacyStatelessFallback(
      (unit) => this.#session({ authInfo: unit.authInfo, pushUnavailable: sessionlessPush }),
      undefined,
      { maxRequestBodySize },
    );
  }

  /** Announces changes on the modern `subscriptions/listen` streams of this endpoint. */
  get notify(): ServerNotifier {
    return this.#listen.notify;
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
      if (Array.isArray(parsedBody)) {
        if (parsedBody.some((message) => claimsEnvelope(message))) {
          return jsonRpcError(
            400,
            -32600,
            'Bad Request: JSON-RPC batches may not contain requests for protocol revision 2026-07-28 or later',
          );
        }
      } else if (isModernBody(parsedBody, request.headers.get('mcp-protocol-version'))) {
        if ((parsedBody as { method?: unknown }).method === 'subscriptions/listen') {
          return this.#listen.fetch(request, {
            parsedBody,
            ...(options.authInfo !== undefined ? { authInfo: options.authInfo } : {}),
          });
        }
        return modernResponse(this.#dispatcher, parsedBody, {
          headers: request.headers,
          authInfo: options.authInfo,
          signal: request.signal,
        });
      }
      // The body has been read: the handlers get it parsed, alongside the request's headers.
      const handlerOptions = {
        parsedBody,
        ...(options.authInfo !== undefined ? { authInfo: options.authInfo } : {}),
      };
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
    const refused = jsonRpcError(405, -32600, 'Method not allowed.');
    refused.headers.set('allow', 'POST');
    return refused;
  }

  /** Close every session. */
  async close(): Promise<void> {
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(sessions.map((session) => session.server.close()));
    await this.#listen.close();
  }

  #session(options: SessionOptions): Server {
    return buildSessionServer(this.#runtime, options);
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
    const server = this.#session({ authInfo: options.authInfo });
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
