import type {
  AuthInfo,
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

import type { HeaderReader } from '../modern/headers.ts';
import type { EventStore } from './eventStore.ts';
import { errorReply, type EventSink, type Responder } from './wire.ts';

/**
 * The HTTP transport of one handshake-era session (Streamable HTTP, 2025-11-25 and earlier):
 * the SDK `Server` on top keeps the protocol (initialize, capabilities, correlation of requests
 * and responses, server→client requests); this carries its messages, writing SSE straight to
 * the host's response through the endpoint's {@link Responder}.
 *
 * Parley's own rather than the SDK's `WebStandardStreamableHTTPServerTransport` because a
 * session waiting on its user (a pending `ctx.elicit`) is held for minutes, by thousands of
 * sessions at once: the SDK's wraps every stream in a web `ReadableStream` (a controller, a
 * reader, a read request, a `TextEncoder`, a `Response`) and arms a keep-alive timer per stream.
 * Here a stream is one small object and the host's own sink, and one timer keeps every stream
 * of the endpoint alive.
 *
 * What a client sees is what the streamable HTTP transport specifies: `Mcp-Session-Id` on every
 * answer, `MCP-Protocol-Version` checked, a POST's responses and the server's requests about it
 * on that POST's SSE stream, the session's `GET` stream for the rest, `DELETE` to end it; with
 * an event store, every event has an id, a call's stream opens with a priming event and a
 * `retry`, and `GET` with `Last-Event-ID` replays what the client missed.
 */

/** What the transport reads of a request: its method and its headers (see `sessions.ts`). */
export interface TransportRequest {
  method: string;
  headers: HeaderReader;
}

/** The SDK's message checks, as the lazily loaded SDK module has them. */
export interface MessageChecks {
  parseJSONRPCMessage(value: unknown): JSONRPCMessage;
  isJSONRPCRequest(value: unknown): boolean;
  isInitializeRequest(value: unknown): boolean;
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION: string;
  SUPPORTED_PROTOCOL_VERSIONS: readonly string[];
}

/** What the transport tells the session it carries. */
export interface TransportHost {
  /** The client's `initialize` was accepted: the session exists from now on. */
  initialized(): void;
  /** The client reads a stream of one of its calls now (a POST's, or one it resumed). */
  callStreamOpened(): void;
  /** A call's stream is done with: ended, or dropped by the client. */
  callStreamEnded(): void;
  /** The client deleted the session. */
  deleted(): Promise<void>;
}

/** Keeps open SSE streams alive through proxies that drop idle connections. */
export class KeepAlive {
  readonly #sinks = new Set<EventSink>();
  readonly #everyMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(everyMs: number) {
    this.#everyMs = everyMs;
  }

  add(sink: EventSink): void {
    this.#sinks.add(sink);
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      for (const open of this.#sinks) open.write(': keepalive\n\n');
    }, this.#everyMs);
    this.#timer.unref?.();
  }

  delete(sink: EventSink): void {
    this.#sinks.delete(sink);
    if (this.#sinks.size > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}

/** How often an open stream gets a comment, as the SDK's transport does. */
export const KEEP_ALIVE_MS = 15_000;

/** The id of a session's `GET` stream in its event store (the SDK's name for it). */
export const STANDALONE_STREAM_ID = '_GET_stream';

/** What a priming event stores: no message (one object for all, as stores keep it). */
const PRIMING = Object.freeze({}) as JSONRPCMessage;

/** The most messages a batch may hold. */
const MAX_BATCH = 100;

/** One SSE stream of a session: a call's (a POST's), or the session's `GET` stream. */
class SessionStream {
  readonly id: string;
  readonly ofCall: boolean;
  /** Where its events go while the client reads it. */
  sink: EventSink | undefined = undefined;
  /** The requests answered on it that have no response yet (a call stream lives while any has). */
  readonly unanswered: RequestId[] = [];

  constructor(id: string, ofCall: boolean) {
    this.id = id;
    this.ofCall = ofCall;
  }
}

function sseEvent(message: JSONRPCMessage, eventId: string | undefined): string {
  const id = eventId === undefined ? '' : `id: ${eventId}\n`;
  return `event: message\n${id}data: ${JSON.stringify(message)}\n\n`;
}

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id?: RequestId } {
  return 'result' in message || 'error' in message;
}

export class SessionTransport implements Transport {
  readonly sessionId: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #checks: MessageChecks;
  readonly #host: TransportHost;
  readonly #events: EventStore | undefined;
  readonly #retryMs: number;
  readonly #keepAlive: KeepAlive;
  #supported: readonly string[];
  /**
   * The call streams with requests unanswered. A list, not maps by request and stream id: a
   * session has a call or two in flight at once, and a map costs more than the search.
   */
  readonly #calls: SessionStream[] = [];
  /** The session's `GET` stream, while the client reads it. */
  #standalone: SessionStream | undefined;
  /** Stream ids: unique within the session (the event store qualifies them with its id). */
  #nextStream = 0;
  #started = false;
  #initialized = false;
  /** The `initialize` request being answered, and where its answer goes. */
  #initializing: { id: RequestId; responder: Responder } | undefined;
  #closed = false;

  constructor(options: {
    sessionId: string;
    checks: MessageChecks;
    host: TransportHost;
    events: EventStore | undefined;
    retryMs: number;
    keepAlive: KeepAlive;
  }) {
    this.sessionId = options.sessionId;
    this.#checks = options.checks;
    this.#host = options.host;
    this.#events = options.events;
    this.#retryMs = options.retryMs;
    this.#keepAlive = options.keepAlive;
    this.#supported = options.checks.SUPPORTED_PROTOCOL_VERSIONS;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('SessionTransport: already started');
    this.#started = true;
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#supported = versions;
  }

  /** Serve one request of this session: a POST of messages, its `GET` stream, its `DELETE`. */
  async handle(
    request: TransportRequest,
    body: unknown,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    if (this.#closed) return responder.send(errorReply(404, -32001, 'Session not found'));
    if (request.method === 'POST') return this.#post(request, body, authInfo, responder);
    const refused = this.#versionProblem(request);
    if (refused !== undefined) return responder.send(refused);
    if (request.method === 'GET') return this.#get(request, responder);
    await this.#host.deleted();
    responder.send({ status: 200 });
  }

  async #post(
    request: TransportRequest,
    body: unknown,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    const accept = request.headers.get('accept');
    if (accept?.includes('application/json') !== true || !accept.includes('text/event-stream')) {
      return responder.send(
        errorReply(
          406,
          -32000,
          'Not Acceptable: the client must accept both application/json and text/event-stream',
        ),
      );
    }
    const raw = Array.isArray(body) ? body : [body];
    if (raw.length > MAX_BATCH) {
      return responder.send(
        errorReply(400, -32600, `Invalid Request: a batch may hold at most ${MAX_BATCH} messages`),
      );
    }
    let messages: JSONRPCMessage[];
    try {
      messages = raw.map((message) => this.#checks.parseJSONRPCMessage(message));
    } catch {
      return responder.send(
        errorReply(
          400,
          -32600,
          'Invalid Request: not a JSON-RPC 2.0 request, notification or response as MCP defines them',
        ),
      );
    }
    const initialize = messages.find((message) => this.#checks.isInitializeRequest(message)) as
      { id: RequestId } | undefined;
    if (initialize !== undefined) {
      if (this.#initialized) {
        return responder.send(
          errorReply(400, -32600, 'Invalid Request: this session is already initialized'),
        );
      }
      if (messages.length > 1) {
        return responder.send(
          errorReply(400, -32600, 'Invalid Request: initialize must be sent alone, not in a batch'),
        );
      }
      this.#initialized = true;
      this.#host.initialized();
      // Answered with one JSON body, not a stream: nothing comes before the answer, and on a
      // stream the answer would be kept in the event store, long after anyone could want it.
      this.#initializing = { id: initialize.id, responder };
      this.onmessage?.(initialize as JSONRPCMessage, { authInfo });
      return;
    }
    if (!this.#initialized) {
      return responder.send(errorReply(400, -32000, 'Bad Request: initialize first'));
    }
    const refused = this.#versionProblem(request);
    if (refused !== undefined) return responder.send(refused);

    const requests = messages.filter((message) => this.#checks.isJSONRPCRequest(message));
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message, { authInfo });
      return responder.send({ status: 202, headers: { 'mcp-session-id': this.sessionId } });
    }

    const version =
      request.headers.get('mcp-protocol-version') ??
      this.#checks.DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    const stream = new SessionStream(String(this.#nextStream++), true);
    for (const message of requests) stream.unanswered.push((message as { id: RequestId }).id);
    this.#calls.push(stream);
    const resumable = this.#resumable(version);
    const priming = resumable ? await this.#primingEvent(stream.id) : '';
    const sink = this.#attach(stream, responder);
    if (priming !== '') sink.write(priming);
    for (const message of messages) {
      const id = (message as { id?: RequestId }).id;
      this.onmessage?.(
        message,
        resumable && id !== undefined && !isResponse(message)
          ? // Only the call's own stream: Parley closes the GET stream itself (when draining).
            { authInfo, closeSSEStream: () => this.closeSSEStream(id) }
          : { authInfo },
      );
    }
  }

  /**
   * Does the client's version let a stream open with an event of empty data (2025-11-25)? The
   * version is one this transport supports, not just any later string: an `initialize` body's
   * version is not checked against the supported list before it gets here.
   */
  #resumable(version: string): boolean {
    return (
      this.#events !== undefined && this.#supported.includes(version) && version >= '2025-11-25'
    );
  }

  /** The priming event of a new stream (its first id and the `retry`), or `''` without one. */
  async #primingEvent(streamId: string): Promise<string> {
    try {
      const id = await (this.#events as EventStore).storeEvent(streamId, PRIMING);
      return `id: ${id}\nretry: ${this.#retryMs}\ndata: \n\n`;
    } catch (error) {
      // A store that fails leaves this stream without resumption, not the call without an answer.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return '';
    }
  }

  async #get(request: TransportRequest, responder: Responder): Promise<void> {
    if (request.headers.get('accept')?.includes('text/event-stream') !== true) {
      return responder.send(
        errorReply(406, -32000, 'Not Acceptable: the client must accept text/event-stream'),
      );
    }
    const lastEventId = this.#events === undefined ? null : request.headers.get('last-event-id');
    if (lastEventId !== null && lastEventId !== '') return this.#replay(lastEventId, responder);
    if (this.#standalone !== undefined) {
      return responder.send(
        errorReply(409, -32000, 'Conflict: this session already has its GET stream open'),
      );
    }
    const stream = new SessionStream(STANDALONE_STREAM_ID, false);
    this.#standalone = stream;
    this.#attach(stream, responder);
  }

  /** Resume a stream after `lastEventId`: what the client missed, then what comes next. */
  async #replay(lastEventId: string, responder: Responder): Promise<void> {
    const events = this.#events as EventStore;
    const streamId = await events.getStreamIdForEventId(lastEventId).catch(() => undefined);
    if (streamId === undefined) {
      return responder.send(
        errorReply(400, -32000, 'Bad Request: Last-Event-ID names no event of this session'),
      );
    }
    const ofCall = streamId !== STANDALONE_STREAM_ID;
    if ((ofCall ? this.#callStream(streamId) : this.#standalone)?.sink !== undefined) {
      return responder.send(errorReply(409, -32000, 'Conflict: that stream is already being read'));
    }
    // Gathered first, written at once: a store that fails mid-way gets a clean 4xx, not a
    // stream cut short.
    let missed = '';
    try {
      await events.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => void (missed += sseEvent(message, eventId)),
      });
    } catch {
      return responder.send(
        errorReply(
          400,
          -32000,
          'Bad Request: the events after that Last-Event-ID cannot be replayed',
        ),
      );
    }
    if (this.#closed) return responder.send(errorReply(404, -32001, 'Session not found'));
    let stream: SessionStream | undefined;
    if (ofCall) stream = this.#callStream(streamId);
    else stream = this.#standalone ??= new SessionStream(STANDALONE_STREAM_ID, false);
    if (stream?.sink !== undefined) {
      return responder.send(errorReply(409, -32000, 'Conflict: that stream is already being read'));
    }
    if (stream === undefined) {
      // Its call was answered while the client was away: the replay holds the answer.
      const sink = responder.events({ 'mcp-session-id': this.sessionId });
      sink.write(missed);
      return sink.end();
    }
    const sink = this.#attach(stream, responder);
    if (missed !== '') sink.write(missed);
  }

  /** The stream `requestId` is answered on, until its response is sent. */
  #streamOf(requestId: RequestId): SessionStream | undefined {
    return this.#calls.find((stream) => stream.unanswered.includes(requestId));
  }

  /** The call stream `id`, while a request of it is unanswered. */
  #callStream(id: string): SessionStream | undefined {
    return this.#calls.find((stream) => stream.id === id);
  }

  /** Open the response as `stream`'s SSE stream. */
  #attach(stream: SessionStream, responder: Responder): EventSink {
    const sink = responder.events({ 'mcp-session-id': this.sessionId }, () =>
      this.#dropped(stream, sink),
    );
    stream.sink = sink;
    this.#keepAlive.add(sink);
    if (stream.ofCall) this.#host.callStreamOpened();
    return sink;
  }

  /** The client stopped reading `sink` (it may be `stream`'s no more). */
  #dropped(stream: SessionStream, sink: EventSink): void {
    if (stream.sink !== sink) return;
    this.#detach(stream);
  }

  #detach(stream: SessionStream): EventSink | undefined {
    const sink = stream.sink;
    if (sink === undefined) return undefined;
    stream.sink = undefined;
    this.#keepAlive.delete(sink);
    if (stream === this.#standalone) this.#standalone = undefined;
    if (stream.ofCall) this.#host.callStreamEnded();
    return sink;
  }

  /** End `stream`'s response, if the client still reads it. */
  #endStream(stream: SessionStream): void {
    this.#detach(stream)?.end();
  }

  #versionProblem(request: TransportRequest) {
    const version = request.headers.get('mcp-protocol-version');
    if (version === null || this.#supported.includes(version)) return undefined;
    return errorReply(
      400,
      -32000,
      `Bad Request: unsupported protocol version ${JSON.stringify(version.slice(0, 64))} (this server supports ${this.#supported.join(', ')})`,
    );
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isResponse(message);
    const requestId = response ? message.id : options?.relatedRequestId;
    if (requestId === undefined) {
      if (response) throw new Error('SessionTransport: a response needs the id of its request');
      // About no request of the client's: the session's GET stream.
      const eventId = await this.#events?.storeEvent(STANDALONE_STREAM_ID, message);
      this.#standalone?.sink?.write(sseEvent(message, eventId));
      return;
    }
    const initializing = this.#initializing;
    if (initializing !== undefined && requestId === initializing.id) {
      if (!response) return;
      this.#initializing = undefined;
      return initializing.responder.send({
        status: 200,
        json: JSON.stringify(message),
        headers: { 'mcp-session-id': this.sessionId },
      });
    }
    const stream = this.#streamOf(requestId);
    if (stream === undefined) {
      throw new Error(`SessionTransport: no stream is open for request ${String(requestId)}`);
    }
    const eventId = await this.#events?.storeEvent(stream.id, message);
    stream.sink?.write(sseEvent(message, eventId));
    if (!response) return;
    stream.unanswered.splice(stream.unanswered.indexOf(requestId), 1);
    if (stream.unanswered.length > 0) return;
    // Every request of the stream is answered: it is done.
    this.#calls.splice(this.#calls.indexOf(stream), 1);
    if (stream.sink === undefined && this.#events === undefined) {
      this.onerror?.(
        new Error(
          `SessionTransport: the response to request ${String(requestId)} is lost: its stream was dropped and nothing keeps events`,
        ),
      );
    }
    this.#endStream(stream);
  }

  /** End the stream of a request, so its client reconnects (SSE polling, SEP-1699). */
  closeSSEStream(requestId: RequestId): void {
    const stream = this.#streamOf(requestId);
    if (stream !== undefined) this.#endStream(stream);
  }

  /** End the session's `GET` stream, so its client reconnects (elsewhere, when draining). */
  closeStandaloneSSEStream(): void {
    if (this.#standalone !== undefined) this.#endStream(this.#standalone);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const stream of this.#calls) this.#endStream(stream);
    if (this.#standalone !== undefined) this.#endStream(this.#standalone);
    this.#calls.length = 0;
    this.onclose?.();
  }
}
