import { SessionClosedError, type SessionCloseReason } from '@parley/core';
import type { AuthInfo } from '@modelcontextprotocol/server';

import { randomUUID } from '../utils/randomness.ts';
import type { ServerRuntime } from '../runtime/serverRuntime.ts';
import { loadSessionServer } from '../handshake/load.ts';
import { loadSdk } from '../utils/loadSdk.ts';
import { Handover, SessionJournal } from './handover.ts';
import type { SessionStore } from './sessionStore.ts';
import { sessionEventStore, type EventStore } from './eventStore.ts';
import type { EndpointLimits } from './limits.ts';
import { KEEP_ALIVE_MS, KeepAlive } from './keepAlive.ts';
import { SessionTransport } from './sessionTransport.ts';
import { Session, type SessionCall, type SessionRequest, type SessionsHost } from './session.ts';
import { SessionsByClient, clientKeyOf } from './clientSessions.ts';
import { errorReply } from '../modern/errorReply.ts';
import type { Responder } from './wire.ts';

export type { SessionRequest } from './session.ts';

/**
 * The handshake-era sessions of one HTTP endpoint (`Mcp-Session-Id`), each an SDK server on
 * Parley's session transport (`sessionTransport.ts`), and what keeps them bounded:
 *
 * - at most `maxSessions` at once (`503` with `Retry-After` past it); at the cap, sessions that did
 *   nothing after `initialize` for `unusedSessionTimeoutMs` are closed first to make room, so a
 *   flood of bare `initialize` requests holds the sessions for seconds, not the idle half hour;
 * - at most `maxSessionsPerClient` of them for one client (`429` past it, once that client's own
 *   unused sessions are closed), so one client cannot take them all;
 * - a sweep on a timer (unref'd, so it never keeps a process alive) that closes a session with
 *   no call in flight and no request for `sessionIdleTimeoutMs`; a call whose stream the client
 *   reads (one waiting for the user, say) keeps its session in use, however long the user takes;
 * - a session whose calls lost their stream, and got none back within `streamResumeWindowMs`,
 *   is closed, and its calls learn it at once: a pending `ctx.elicit()` rejects with a
 *   `SessionClosedError` instead of waiting out its timeout;
 * - with an event store, every SSE event has an id, each POST stream opens with a priming event
 *   and a `retry`, and a client that reconnects with `Last-Event-ID` gets what it missed;
 * - with a session store (`handover.ts`), a session is kept there and any replica rebuilds it on
 *   its first request, and a draining replica hands its waiting calls over instead of failing
 *   them.
 */

/** The client's `notifications/initialized` after `initialize`: not yet a use of the session. */
function isInitializedNotice(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body as { method?: unknown }).method === 'notifications/initialized'
  );
}

export interface SessionsOptions {
  limits: EndpointLimits;
  /** What every session id begins with (see `HttpOptions.sessionIdPrefix`). */
  idPrefix?: string | undefined;
  /** `undefined`: streams are not resumable. */
  eventStore: EventStore | undefined;
  /** `undefined`: a session lives and dies with this process. */
  sessionStore?: SessionStore | undefined;
  now?: () => number;
}

/** How long a client refused for lack of room is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 5;

export class HandshakeSessions {
  readonly #runtime: ServerRuntime;
  readonly #limits: EndpointLimits;
  readonly #eventStore: EventStore | undefined;
  readonly #handover: Handover | undefined;
  /** Kept sessions being rebuilt here, by id: two requests of one rebuild it once. */
  readonly #restoring = new Map<string, Promise<Session | undefined>>();
  readonly #now: () => number;
  readonly #idPrefix: string;
  readonly #sessions = new Map<string, Session>();
  readonly #clients = new SessionsByClient();
  /** One timer for every open stream of every session. */
  readonly #keepAlive = new KeepAlive(KEEP_ALIVE_MS);
  /** Sessions being initialised: they count against the bound too. */
  #opening = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #draining = false;
  #closed = false;
  /** Calls being handed over: the close waits for them. */
  readonly #handing = new Set<Promise<void>>();
  readonly #host: SessionsHost;

  constructor(runtime: ServerRuntime, options: SessionsOptions) {
    this.#runtime = runtime;
    this.#limits = options.limits;
    this.#eventStore = options.eventStore;
    this.#now = options.now ?? Date.now;
    this.#idPrefix = options.idPrefix ?? '';
    // Checked with the options (`checkSessionOptions`): a store comes with an event store.
    const store = this.#eventStore === undefined ? undefined : options.sessionStore;
    this.#handover =
      store === undefined ? undefined : new Handover(store, this.#limits.sessionIdleTimeoutMs);
    this.#handover?.start();
    this.#host = {
      isDraining: () => this.#draining,
      now: this.#now,
      register: (session) => {
        this.#sessions.set(session.id, session);
        this.#clients.add(session);
        this.#startSweeping();
      },
      keep: (session, initialize) =>
        this.#handover
          ?.saveSession(session.id, { initialize, principal: session.principal })
          .catch(() => {}),
      letGo: (call) => this.#letGo(call),
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
    const client = clientKeyOf(authInfo?.clientId, request.clientAddress);
    const crowded = this.#clients.refusal(client, this.#limits, this.#now(), (session) => {
      void this.#end(session, 'idle');
    });
    if (crowded !== undefined) return responder.send(crowded);
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
    this.#clients.opening(client, 1);
    try {
      const session = await this.#build(this.#idPrefix + randomUUID(), authInfo, client);
      const { id } = session;
      await session.transport.handle(request, parsedBody, authInfo, responder);
      // Refused before it began (a bad Accept header, say): nothing to keep.
      if (this.#sessions.get(id) !== session) void session.server.close();
    } finally {
      this.#opening--;
      this.#clients.opening(client, -1);
    }
  }

  /** A session, its transport and its SDK server, connected. */
  async #build(
    id: string,
    authInfo: AuthInfo | undefined,
    client: string | undefined,
    rebuilt = false,
  ): Promise<Session> {
    const [sdk, { buildSessionServer }] = await Promise.all([loadSdk(), loadSessionServer()]);
    const session = new Session(id, authInfo?.clientId, this.#host, client);
    session.transport = new SessionTransport({
      sessionId: id,
      checks: sdk,
      host: session,
      events: this.#eventStore === undefined ? undefined : sessionEventStore(this.#eventStore, id),
      retryMs: this.#limits.sseRetryMs,
      keepAlive: this.#keepAlive,
      journal: this.#handover === undefined ? undefined : new SessionJournal(this.#handover, id),
    });
    session.server = buildSessionServer(this.#runtime, {
      authInfo,
      calls: session,
      // A rebuilt session's questions get ids of their own: the replica that opened it
      // numbered its own from 0, and answers are kept by id.
      ...(rebuilt ? { firstRequestId: 1 + Math.floor(Math.random() * 2 ** 40) } : {}),
    });
    await session.server.connect(session.transport);
    return session;
  }

  /** Rebuild a session another replica opened, from the session store, if it is kept there. */
  #restore(
    id: string,
    authInfo: AuthInfo | undefined,
    address: string | undefined,
  ): Promise<Session | undefined> {
    let restoring = this.#restoring.get(id);
    if (restoring === undefined) {
      restoring = this.#rebuild(id, authInfo, address).finally(() => this.#restoring.delete(id));
      this.#restoring.set(id, restoring);
    }
    return restoring;
  }

  /** Counted against its client once rebuilt, but never refused for it: it is no new session. */
  async #rebuild(
    id: string,
    authInfo: AuthInfo | undefined,
    address: string | undefined,
  ): Promise<Session | undefined> {
    const kept = await this.#handover?.loadSession(id);
    if (kept === undefined || kept.principal !== authInfo?.clientId || this.#closed)
      return undefined;
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) this.#sweep(true);
    if (this.#sessions.size + this.#opening >= this.#limits.maxSessions) return undefined;
    this.#opening++;
    try {
      const client = clientKeyOf(authInfo?.clientId, address);
      const session = await this.#build(id, authInfo, client, true);
      await session.transport.restore(kept.initialize);
      session.used = true;
      return session;
    } catch {
      // What was kept cannot be served here (the SDK refused its initialize): unknown, as if
      // it had never been kept, and the client opens a new session.
      return undefined;
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
    if (this.#handover !== undefined && this.#draining && request.method === 'GET') {
      // A stream (a call's, resumed, or the session's) would hold the drain, or take back a
      // call just handed over: not processed, so the balancer sends it to another replica,
      // which rebuilds the session. A call posted here still runs: if it comes to wait on its
      // client, it is handed over in turn.
      return responder.send(
        errorReply('serviceUnavailable', 'Service Unavailable: the server is shutting down', {
          headers: { 'retry-after': '1' },
        }),
      );
    }
    let session = this.#sessions.get(id);
    if (session === undefined && this.#handover !== undefined && !this.#draining) {
      session = await this.#restore(id, authInfo, request.clientAddress);
    }
    // Another principal's session reads as unknown: its id says nothing to anyone else.
    if (session === undefined || session.closing || session.principal !== authInfo?.clientId) {
      return responder.send(errorReply('sessionNotFound', 'Session not found'));
    }
    const now = this.#now();
    // A kept session in use lives on in the store too (a read and a write, a few times per TTL).
    if (this.#handover !== undefined && now - session.keptAt >= this.#handover.ttlMs / 4) {
      session.keptAt = now;
      void this.#handover.touchSession(id);
    }
    session.lastSeen = now;
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
        if (call.waiting > 0) this.#letGo(call);
      }
      session.transport.closeStandaloneSSEStream();
    }
  }

  /**
   * A call waiting on its client while this replica drains: handed to another replica when its
   * record is kept (its client reconnects there and the call goes on), else abandoned, so its
   * client fails fast and can call again elsewhere.
   */
  #letGo(call: SessionCall): void {
    const { session } = call;
    const abandon = (reason: 'shutdown' | 'handed_over') =>
      call.abandon(new SessionClosedError({ reason, sessionId: session.id }));
    if (call.kept === undefined) return abandon('shutdown');
    const handing = session.transport
      .handOver(call.id)
      .then((handed) => abandon(handed ? 'handed_over' : 'shutdown'));
    this.#handing.add(handing);
    void handing.finally(() => this.#handing.delete(handing));
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
    await Promise.allSettled(this.#handing);
    await Promise.allSettled([...this.#sessions.values()].map((s) => this.#end(s, 'shutdown')));
    await this.#handover?.stop();
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
      if (atCap && session.unused) {
        if (now - session.lastSeen >= unusedSessionTimeoutMs) void this.#end(session, 'idle');
        continue;
      }
      if (session.streams > 0) {
        // Someone is reading: the session is in use, whatever its calls are waiting for.
        session.lastSeen = now;
        continue;
      }
      if (session.calls.length > 0) {
        // Kept calls may be read elsewhere (a replica that follows them for a client the
        // balancer sent there): only their own timeouts end them.
        if (this.#handover !== undefined && session.calls.every((call) => call.kept !== undefined))
          continue;
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
    this.#clients.remove(session);
    // Only the client's DELETE ends a kept session everywhere: an idle or closing replica lets
    // go of its copy, and another may still serve it.
    if (reason === 'deleted') await this.#handover?.forgetSession(session.id);
    const error = new SessionClosedError({ reason, sessionId: session.id });
    for (const call of session.calls) call.abandon(error);
    await session.server.close().catch(() => {});
  }
}
