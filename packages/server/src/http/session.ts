import type { SessionCloseReason } from '@parley/core';
import type { JSONRPCMessage, RequestId, Server } from '@modelcontextprotocol/server';

import type { KeptCall } from '../handler/pushChannel.ts';
import type { CallTracker, TrackedCall } from '../handshake/sessionServer.ts';
import type { TransportRequest } from './sessionRequestChecks.ts';
import type { SessionTransport, TransportHost } from './sessionTransport.ts';

/**
 * One handshake-era session of an HTTP endpoint and its calls in flight, as `sessions.ts` keeps
 * them: who opened it, whether the client reads a stream of it now, which calls wait on the
 * client.
 */

/**
 * What a session's transport reads of a request: its method and its headers. Not a web
 * `Request`: one per call (the headers copied, a URL, an abort signal following the client's)
 * is a few kilobytes that a call waiting on its user holds for minutes. A session learns that
 * its client left from the call's stream, not from a request signal.
 */
export type SessionRequest = TransportRequest;

/** What a call needs of the sessions it belongs to. */
export interface CallHost {
  isDraining(): boolean;
  now(): number;
  /** Hand a call that waits on its client to another replica, or abandon it (draining). */
  letGo(call: SessionCall): void;
}

/**
 * One call in flight on a session. A class, and its own abort listener (`handleEvent`), so a
 * call waiting on its user holds one object and one controller, not a closure per hook.
 */
export class SessionCall implements TrackedCall {
  /** Aborted when its request is, or when it is abandoned. */
  readonly #controller = new AbortController();
  #abandoned: Error | undefined;
  /** How many requests to the client it is waiting on. */
  waiting = 0;
  readonly #session: Session;
  readonly #request: AbortSignal;
  readonly #host: CallHost;
  readonly id: RequestId;
  readonly kept: KeptCall | undefined;

  constructor(session: Session, request: AbortSignal, id: RequestId, host: CallHost) {
    this.#session = session;
    this.#request = request;
    this.#host = host;
    this.id = id;
    this.kept = session.transport.keptCall(id);
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

  get session(): Session {
    return this.#session;
  }

  waitOn<T>(pending: Promise<T>): Promise<T> {
    if (this.#host.isDraining()) this.#host.letGo(this);
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
export interface SessionsHost extends CallHost {
  register(session: Session): void;
  /** Keep a new session in the session store, if there is one. */
  keep(session: Session, initialize: JSONRPCMessage): Promise<void> | void;
  end(session: Session, reason: SessionCloseReason): Promise<void>;
}

/**
 * One session: its SDK server, its transport, and what keeps it bounded. It hears of its
 * streams (as the transport's host) and follows its calls (as their tracker) itself: one
 * object per session, not one per role.
 */
export class Session implements TransportHost, CallTracker {
  /** Known before the transport is made, so the event store's view can name it. */
  readonly id: string;
  transport!: SessionTransport;
  server!: Server;
  /** Who opened it: only they may use it. */
  readonly principal: string | undefined;
  /** The client it counts against for `maxSessionsPerClient` (see `clientSessions.ts`). */
  readonly client: string | undefined;
  lastSeen: number;
  /** When its copy in the session store was last kept for another TTL (with a store). */
  keptAt: number;
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

  constructor(
    id: string,
    principal: string | undefined,
    host: SessionsHost,
    client: string | undefined,
  ) {
    this.id = id;
    this.principal = principal;
    this.client = client;
    this.#host = host;
    this.lastSeen = host.now();
    this.keptAt = this.lastSeen;
  }

  /** Nothing since `initialize`: no call, no stream; what is closed first to make room. */
  get unused(): boolean {
    return !this.used && this.calls.length === 0 && this.streams === 0;
  }

  initialized(initialize: JSONRPCMessage | undefined): Promise<void> | void {
    this.#host.register(this);
    if (initialize === undefined) return;
    return this.#host.keep(this, initialize);
  }

  begin(request: AbortSignal, id: RequestId): SessionCall {
    return new SessionCall(this, request, id, this.#host);
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
