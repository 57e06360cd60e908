import { SessionClosedError, type SessionCloseReason } from '@parley/core';
import type { AuthInfo, Server } from '@modelcontextprotocol/server';

import { randomUUID } from '../utils/randomness.ts';
import type { ServerRuntime } from '../runtime/serverRuntime.ts';
import { loadSessionServer } from '../handshake/load.ts';
import { loadSdk } from '../utils/loadSdk.ts';
import type { CallTracker, TrackedCall } from '../handshake/sessionServer.ts';
import { sessionEventStore, type EventStore } from './eventStore.ts';
import type { EndpointLimits } from './limits.ts';
import { KEEP_ALIVE_MS, KeepAlive } from './keepAlive.ts';
import type { TransportRequest } from './sessionRequestChecks.ts';
import { SessionTransport, type TransportHost } from './sessionTransport.ts';
import { errorReply } from '../modern/errorReply.ts';
import type { Responder } from './wire.ts';

/**
 * The handshake-era sessions of one HTTP endpoint (`Mcp-Session-Id`), each an SDK server on
 * Parley's session transport (`sessionTransport.ts`), and what keeps them bounded:
 *
 * - at most `maxSessions` at once (`503` with `Retry-After` past it); at the cap, sessions that did
 *   nothing after `initialize` for `unusedSessionTimeoutMs` are closed first to make room, so a
 *   flood of bare `initialize` requests holds the sessions for seconds, not the idle half hour;
 * - a sweep on a timer (unref'd, so it never keeps a process alive) that closes a session with
 *   no call in flight and no request for `sessionIdleTimeoutMs`; a call whose stream the client
 *   reads (one waiting for the user, say) keeps its session in use, however long the user takes;
 * - a session whose calls lost their stream, and got none back within `streamResumeWindowMs`,
 *   is closed, and its calls learn it at once: a pending `ctx.elicit()` rejects with a
 *   `SessionClosedError` instead of waiting out its timeout;
 * - with an event store, every SSE event has an id, each POST stream opens with a priming event
 *   and a `retry`, and a client that reconnects with `Last-Event-ID` gets what it missed.
 */

/** The client's `notifications/initialized` after `initialize`: not yet a use of the session. */
function isInitializedNotice(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { method?: unknown }).method === 'notifications/initialized'
  );
}

/**
 * What a session's transport reads of a request: its method and its headers. Not a web
 * `Request`: one per call (the headers copied, a URL, an abort signal following the client's)
 * is a few kilobytes that a call waiting on its user holds for minutes. A session learns that
 * its client left from the call's stream, not from a request signal.
 */
export type SessionRequest = TransportRequest;

/** What a call needs of the sessions it belongs to. */
interface CallHost {
  isDraining(): boolean;
  now(): number;
}

/**
 * One call in flight on a session. A class, and its own abort listener (`handleEvent`), so a
 * call waiting on its user holds one object and one controller, not a closure per hook.
 */
class SessionCall implements TrackedCall {
  /** Aborted when its request is, or when it is abandoned. */
  readonly #controller = new AbortController();
  #abandoned: Error | undefined;
  /** How many requests to the client it is waiting on. */
  waiting = 0;
  readonly #session: Session;
  readonly #request: AbortSignal;
  readonly #host: CallHost;

  constructor(session: Session, request: AbortSignal, host: CallHost) {
    this.#session = session;
    this.#request = request;
    this.#host = host;
    if (request.aborted) this.handleEvent();
    else request.addEventListener('abort', this, { once: true });
    session.calls.push(this);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get abandoned(): Error | undefined {
    return this.#abandoned;
  }

  /** Its request was aborted (the client cancelled the call). */
  handleEvent(): void {
    this.#controller.abort(this.#request.reason);
  }

  abandon(error: Error): void {
    if (this.#abandoned !== undefined) return;
    this.#abandoned = error;
    this.#controller.abort(error);
  }

  waitOn<T>(pending: Promise<T>): Promise<T> {
    if (this.#host.isDraining()) {
      this.abandon(new SessionClosedError({ reason: 'shutdown', sessionId: this.#session.id }));
    }
    this.waiting++;
    return pending.finally(() => void this.waiting--);
  }

  end(): void {
    this.#request.removeEventListener('abort', this);
    const session = this.#session;
    session.calls.splice(session.calls.indexOf(this), 1);
    session.lastSeen = this.#host.now();
    if (session.calls.length === 0) session.detachedSince = undefined;
  }
}

/** What a session needs of the sessions it belongs to. */
interface SessionsHost extends CallHost {
  register(session: Session): void;
  end(session: Session, reason: SessionCloseReason): Promise<void>;
}

/**
 * One session: its SDK server, its transport, and what keeps it bounded. It hears of its
 * streams (as the transport's host) and follows its calls (as their tracker) itself: one
 * object per session, not one per role.
 */
class Session implements TransportHost, CallTracker {
  /** Known before the transport is made, so the event store's view can name it. */
  readonly id: string;
  transport!: SessionTransport;
  server!: Server;
  /** Who opened it: only they may use it. */
  readonly principal: string | undefined;
  lastSeen: number;
  /** The client did something after `initialize`: a call, a list, a stream. */
  used = false;
  /** Streams of this session's calls the client is reading now. */
  streams = 0;
  /** Since when it has had calls in flight and no stream. */
  detachedSince: number | undefined = undefined;
  /** Its calls in flight: a list, as a session has a call or two at once. */
  readonly calls: SessionCall[] = [];
  closing = false;
  readonly #host: SessionsHost;

  constructor(principal: string | undefined, host: SessionsHost, idPrefix = '') {
    this.id = idPrefix + randomUUID();
    this.principal = principal;
    this.#host = host;
    this.lastSeen = host.now();
  }

  initialized(): void {
    this.#host.register(this);
  }

  begin(request: AbortSignal): SessionCall {
    return new SessionCall(this, request, this.#host);
  }

  /** Count the client as present while it reads the stream of one of its calls. */
  callStreamOpened(): void {
    this.streams++;
    this.detachedSince = undefined;
  }

  callStreamEnded(): void {
    const now = this.#host.now();
    this.streams--;
    this.lastSeen = now;
    if (this.streams === 0 && this.calls.length > 0) this.detachedSince = now;
  }

  deleted(): Promise<void> {
    return this.#host.end(this, 'deleted');
  }
}

export interface SessionsOptions {
  limits: EndpointLimits;
  /** What every session id begins with (see `HttpOptions.sessionIdPrefix`). */
  idPrefix?: string | undefined;
  /** `undefined`: streams are not resumable. */
  eventStore: EventStore | undefined;
  now?: () => number;
}

/** How long a client refused for lack of room is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 5;

export class HandshakeSessions {
  readonly #runtime: ServerRuntime;
  readonly #limits: EndpointLimits;
  readonly #eventStore: EventStore | undefined;
  readonly #now: () => number;
  readonly #idPrefix: string;
  readonly #sessions = new Map<string, Session>();
  /** One timer for every open stream of every session. */
  readonly #keepAlive = new KeepAlive(KEEP_ALIVE_MS);
  /** Sessions being initialised: they count against the bound too. */
  #opening = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #draining = false;
  #closed = false;
  readonly #host: SessionsHost;

  constructor(runtime: ServerRuntime, options: SessionsOptions) {
    this.#runtime = runtime;
    this.#limits = options.limits;
    this.#eventStore = options.eventStore;
    this.#now = options.now ?? Date.now;
    this.#idPrefix = options.idPrefix ?? '';
    this.#host = {
      isDraining: () => this.#draining,
      now: this.#now,
      register: (session) => {
        this.#sessions.set(session.id, session);
        this.#startSweeping();
      },
      end: (session, reason) => this.#end(session, reason),
    };
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Open a session with its `initialize` request. */
  async open(
    request: SessionRequest,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    if (this.#closed || this.#draining) {
      return responder.send(
        errorReply('serviceUnavailable', 'Service Unavailable: the server is shutting down', {
          headers: { 'retry-after': '1' },
        }),
      );
    }
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) this.#sweep(true);
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) {
      return responder.send(
        errorReply(
          'serviceUnavailable',
          `Service Unavailable: this server has as many sessions open as it may (maxSessions ${this.#limits.maxSessions}), all in use; try again later`,
          { headers: { 'retry-after': String(FULL_RETRY_AFTER_SECONDS) } },
        ),
      );
    }
    this.#opening++;
    try {
      const [sdk, { buildSessionServer }] = await Promise.all([loadSdk(), loadSessionServer()]);
      const session = new Session(authInfo?.clientId, this.#host, this.#idPrefix);
      const { id } = session;
      session.transport = new SessionTransport({
        sessionId: id,
        checks: sdk,
        host: session,
        events:
          this.#eventStore === undefined ? undefined : sessionEventStore(this.#eventStore, id),
        retryMs: this.#limits.sseRetryMs,
        keepAlive: this.#keepAlive,
      });
      session.server = buildSessionServer(this.#runtime, {
        authInfo,
        calls: session,
      });
      await session.server.connect(session.transport);
      await session.transport.handle(request, parsedBody, authInfo, responder);
      // Refused before it began (a bad Accept header, say): nothing to keep.
      if (this.#sessions.get(id) !== session) void session.server.close();
    } finally {
      this.#opening--;
    }
  }

  /** Serve a request of an open session (a call, an answer, its GET stream, its `DELETE`). */
  async serve(
    id: string,
    request: SessionRequest,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    const session = this.#sessions.get(id);
    // Another principal's session reads as unknown: its id says nothing to anyone else.
    if (session === undefined || session.closing || session.principal !== authInfo?.clientId) {
      return responder.send(errorReply('sessionNotFound', 'Session not found'));
    }
    session.lastSeen = this.#now();
    if (!session.used && !isInitializedNotice(parsedBody)) session.used = true;
    await session.transport.handle(request, parsedBody, authInfo, responder);
    // A notification stream (re)opened while the server drains would hold the drain open for
    // the whole grace: it ends at once, as `drain()` ended the ones open then.
    if (this.#draining && request.method === 'GET') session.transport.closeStandaloneSSEStream();
  }

  /**
   * The server is draining: calls waiting on their client get a `SessionClosedError` now, so
   * their clients fail fast and can retry elsewhere, and every session's notification stream
   * closes. Calls that are working finish; new sessions are refused.
   */
  drain(): void {
    this.#draining = true;
    for (const session of this.#sessions.values()) {
      for (const call of session.calls) {
        if (call.waiting > 0) {
          call.abandon(new SessionClosedError({ reason: 'shutdown', sessionId: session.id }));
        }
      }
      session.transport.closeStandaloneSSEStream();
    }
  }

  /** Calls in flight, on every session. */
  get callsInFlight(): number {
    let count = 0;
    for (const session of this.#sessions.values()) count += session.calls.length;
    return count;
  }

  /** Close every session; their calls are abandoned. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.allSettled([...this.#sessions.values()].map((s) => this.#end(s, 'shutdown')));
  }

  #startSweeping(): void {
    if (this.#timer !== undefined || this.#closed) return;
    const { sessionIdleTimeoutMs, streamResumeWindowMs } = this.#limits;
    const every = Math.min(
      15_000,
      Math.max(50, Math.min(sessionIdleTimeoutMs, streamResumeWindowMs) / 4),
    );
    this.#timer = setInterval(() => this.#sweep(), every);
    this.#timer.unref?.();
  }

  /** Close what is idle; `atCap`: also what did nothing since `initialize`, to make room. */
  #sweep(atCap = false): void {
    const now = this.#now();
    const { unusedSessionTimeoutMs } = this.#limits;
    for (const session of this.#sessions.values()) {
      if (atCap && !session.used && session.calls.length === 0 && session.streams === 0) {
        if (now - session.lastSeen >= unusedSessionTimeoutMs) void this.#end(session, 'idle');
        continue;
      }
      if (session.streams > 0) {
        // Someone is reading: the session is in use, whatever its calls are waiting for.
        session.lastSeen = now;
        continue;
      }
      if (session.calls.length > 0) {
        session.detachedSince ??= now;
        if (now - session.detachedSince >= this.#limits.streamResumeWindowMs) {
          void this.#end(session, 'stream_lost');
        }
        continue;
      }
      if (now - session.lastSeen >= this.#limits.sessionIdleTimeoutMs)
        void this.#end(session, 'idle');
    }
    if (this.#sessions.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  async #end(session: Session, reason: SessionCloseReason): Promise<void> {
    if (session.closing) return;
    session.closing = true;
    this.#sessions.delete(session.id);
    const error = new SessionClosedError({ reason, sessionId: session.id });
    for (const call of session.calls) call.abandon(error);
    await session.server.close().catch(() => {});
  }
}
