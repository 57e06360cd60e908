import { SessionClosedError, type SessionCloseReason } from '@parley/core';
import type {
  AuthInfo,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

import type { HeaderReader } from '../modern/headers.ts';
import type { ServerRuntime } from '../runtime.ts';
import { loadSdk, loadSessionServer } from '../sdk/load.ts';
import type { CallTracker, TrackedCall } from '../sdk/sessionServer.ts';
import { sessionEventStore, type EventStore } from './eventStore.ts';
import type { EndpointLimits } from './limits.ts';
import { errorReply, type FollowedResponse, type Reply } from './wire.ts';

/**
 * The handshake-era sessions of one HTTP endpoint (`Mcp-Session-Id`), each an SDK server on the
 * SDK's streamable HTTP transport, and what keeps them bounded:
 *
 * - at most `maxSessions` at once (`503` with `Retry-After` past it);
 * - a sweep on a timer (unref'd, so it never keeps a process alive) that closes a session with
 *   no call in flight and no request for `sessionIdleTimeoutMs`; a call whose stream the client
 *   reads (one waiting for the user, say) keeps its session in use, however long the user takes;
 * - a session whose calls lost their stream, and got none back within `streamResumeWindowMs`,
 *   is closed, and its calls learn it at once: a pending `ctx.elicit()` rejects with a
 *   `SessionClosedError` instead of waiting out its timeout;
 * - with an event store, every SSE event has an id, each POST stream opens with a priming event
 *   and a `retry`, and a client that reconnects with `Last-Event-ID` gets what it missed.
 */

/**
 * What a session's transport reads of a request: its method and its headers. Not a web
 * `Request`: one per call (the headers copied, a URL, an abort signal following the client's)
 * is a few kilobytes that a call waiting on its user holds for minutes. The SDK's transport
 * (2.4.0, pinned) reads `method` and `headers.get()` and nothing else, and a session learns
 * that its client left from the call's stream, not from a request signal.
 */
export interface SessionRequest {
  method: string;
  headers: HeaderReader;
}

/** A {@link SessionRequest} as the SDK transport's parameter type names it. */
function asTransportRequest(request: SessionRequest): Request {
  return request as unknown as Request;
}

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
    session.calls.add(this);
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
    session.calls.delete(this);
    session.lastSeen = this.#host.now();
    if (session.calls.size === 0) session.detachedSince = undefined;
  }
}

interface Session {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** Who opened it: only they may use it. */
  principal: string | undefined;
  lastSeen: number;
  /** Streams of this session's calls the client is reading now. */
  streams: number;
  /** Since when it has had calls in flight and no stream. */
  detachedSince: number | undefined;
  calls: Set<SessionCall>;
  closing: boolean;
  /** Its view of the event store (`undefined`: streams are not resumable). */
  events: EventStore | undefined;
}

export interface SessionsOptions {
  limits: EndpointLimits;
  /** `undefined`: streams are not resumable. */
  eventStore: EventStore | undefined;
  now?: () => number;
}

/** The SDK transport's id for a session's `GET` notification stream. */
const STANDALONE_STREAM_ID = '_GET_stream';

/** How long a client refused for lack of room is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 5;

function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') === true;
}

export class HandshakeSessions {
  readonly #runtime: ServerRuntime;
  readonly #limits: EndpointLimits;
  readonly #eventStore: EventStore | undefined;
  readonly #now: () => number;
  readonly #sessions = new Map<string, Session>();
  /** Sessions being initialised: they count against the bound too. */
  #opening = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #draining = false;
  #closed = false;
  readonly #callHost: CallHost;

  constructor(runtime: ServerRuntime, options: SessionsOptions) {
    this.#runtime = runtime;
    this.#limits = options.limits;
    this.#eventStore = options.eventStore;
    this.#now = options.now ?? Date.now;
    this.#callHost = { isDraining: () => this.#draining, now: this.#now };
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Open a session with its `initialize` request. */
  async open(
    request: SessionRequest,
    parsedBody: unknown,
    authInfo: AuthInfo | undefined,
  ): Promise<Response | FollowedResponse | Reply> {
    if (this.#closed || this.#draining) {
      return errorReply(503, -32000, 'Service Unavailable: the server is shutting down', {
        'retry-after': '1',
      });
    }
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) this.#sweep();
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) {
      return errorReply(
        503,
        -32000,
        `Service Unavailable: this server has as many sessions open as it may (${this.#limits.maxSessions}); try again later`,
        { 'retry-after': String(FULL_RETRY_AFTER_SECONDS) },
      );
    }
    this.#opening++;
    try {
      const [sdk, { buildSessionServer }] = await Promise.all([loadSdk(), loadSessionServer()]);
      const session: Session = {
        id: '',
        transport: undefined as never,
        server: undefined as never,
        principal: authInfo?.clientId,
        lastSeen: this.#now(),
        streams: 0,
        detachedSince: undefined,
        calls: new Set(),
        closing: false,
        events: undefined,
      };
      // Known before the transport issues it, so the event store's view can name it.
      const sessionId = crypto.randomUUID();
      session.events =
        this.#eventStore === undefined
          ? undefined
          : sessionEventStore(this.#eventStore, () => sessionId);
      session.transport = new sdk.WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => sessionId,
        onsessioninitialized: (id) => {
          session.id = id;
          this.#sessions.set(id, session);
          this.#startSweeping();
        },
        onsessionclosed: () => void this.#end(session, 'deleted'),
        maxRequestBodySize: this.#limits.maxBodyBytes,
        ...(session.events !== undefined
          ? { eventStore: session.events, retryInterval: this.#limits.sseRetryMs }
          : {}),
      });
      session.server = buildSessionServer(this.#runtime, {
        authInfo,
        calls: this.#tracker(session),
      });
      await session.server.connect(session.transport);
      const response = await session.transport.handleRequest(asTransportRequest(request), {
        parsedBody,
        ...(authInfo !== undefined ? { authInfo } : {}),
      });
      // Refused before it began (a bad Accept header, say): nothing to keep.
      if (session.id === '') void session.server.close();
      return this.#follow(session, response);
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
  ): Promise<Response | FollowedResponse | Reply> {
    const session = this.#sessions.get(id);
    // Another principal's session reads as unknown: its id says nothing to anyone else.
    if (session === undefined || session.closing || session.principal !== authInfo?.clientId) {
      return errorReply(404, -32001, 'Session not found');
    }
    session.lastSeen = this.#now();
    const ofCall = request.method === 'POST' || (await this.#resumesCall(session, request));
    const response = await session.transport.handleRequest(asTransportRequest(request), {
      ...(parsedBody !== undefined ? { parsedBody } : {}),
      ...(authInfo !== undefined ? { authInfo } : {}),
    });
    if (ofCall) return this.#follow(session, response);
    // A notification stream (re)opened while the server drains would hold the drain open for
    // the whole grace: it ends at once, as `drain()` ended the ones open then.
    if (this.#draining && request.method === 'GET') session.transport.closeStandaloneSSEStream();
    return response;
  }

  /**
   * Does this `GET` resume a call's stream (rather than open or resume the session's
   * notification stream, which says nothing about whether the client is still there)?
   */
  async #resumesCall(session: Session, request: SessionRequest): Promise<boolean> {
    const lastEventId = request.headers.get('last-event-id');
    if (request.method !== 'GET' || lastEventId === null || session.events === undefined) {
      return false;
    }
    const streamId = await session.events.getStreamIdForEventId(lastEventId).catch(() => undefined);
    return streamId !== undefined && streamId !== STANDALONE_STREAM_ID;
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
    for (const session of this.#sessions.values()) count += session.calls.size;
    return count;
  }

  /** Close every session; their calls are abandoned. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.allSettled([...this.#sessions.values()].map((s) => this.#end(s, 'shutdown')));
  }

  #tracker(session: Session): CallTracker {
    return { begin: (request) => new SessionCall(session, request, this.#callHost) };
  }

  /**
   * Count the client as present while it reads the stream of one of its calls. The host tells
   * when the stream is done with, so no second stream is wrapped around the SDK's.
   */
  #follow(session: Session, response: Response): Response | FollowedResponse {
    if (response.body === null || !isEventStream(response)) return response;
    session.streams++;
    session.detachedSince = undefined;
    let released = false;
    const ended = () => {
      if (released) return;
      released = true;
      session.streams--;
      session.lastSeen = this.#now();
      if (session.streams === 0 && session.calls.size > 0) session.detachedSince = this.#now();
    };
    return { response, ended };
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

  #sweep(): void {
    const now = this.#now();
    for (const session of this.#sessions.values()) {
      if (session.streams > 0) {
        // Someone is reading: the session is in use, whatever its calls are waiting for.
        session.lastSeen = now;
        continue;
      }
      if (session.calls.size > 0) {
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
