import type {
  AuthInfo,
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

import type { EventStore } from './eventStore.ts';
import type { KeepAlive } from './keepAlive.ts';
import {
  postedMessages,
  versionProblem,
  type MessageChecks,
  type TransportRequest,
} from './sessionRequestChecks.ts';
import {
  SessionStreams,
  sseEvent,
  STANDALONE_STREAM_ID,
  type StreamHost,
} from './sessionStreams.ts';
import { errorReply } from '../modern/errorReply.ts';
import type { Responder } from './wire.ts';

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
 * Here a stream is one small object and the host's own sink, and one timer (`keepAlive.ts`) keeps
 * every stream of the endpoint alive.
 *
 * What a client sees is what the streamable HTTP transport specifies: `Mcp-Session-Id` on every
 * answer, `MCP-Protocol-Version` checked, a POST's responses and the server's requests about it
 * on that POST's SSE stream, the session's `GET` stream for the rest, `DELETE` to end it; with
 * an event store, every event has an id, a call's stream opens with a priming event and a
 * `retry`, and `GET` with `Last-Event-ID` replays what the client missed.
 *
 * This module is the transport's protocol: what each request does, which message goes on which
 * stream, and when a stream is done with. Its base class keeps the streams and replays them
 * (`sessionStreams.ts`); the checks a request must pass are in `sessionRequestChecks.ts`.
 */

/** What the transport tells the session it carries. */
export interface TransportHost extends StreamHost {
  /** The client's `initialize` was accepted: the session exists from now on. */
  initialized(): void;
  /** The client deleted the session. */
  deleted(): Promise<void>;
}

/** What a priming event stores: no message (one object for all, as stores keep it). */
const PRIMING = Object.freeze({}) as JSONRPCMessage;

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id?: RequestId } {
  return 'result' in message || 'error' in message;
}

export class SessionTransport extends SessionStreams<TransportHost> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #checks: MessageChecks;
  readonly #retryMs: number;
  #supported: readonly string[];
  #started = false;
  #initialized = false;
  /** The `initialize` request being answered, and where its answer goes. */
  #initializing: { id: RequestId; responder: Responder } | undefined;

  constructor(options: {
    sessionId: string;
    checks: MessageChecks;
    host: TransportHost;
    events: EventStore | undefined;
    retryMs: number;
    keepAlive: KeepAlive;
  }) {
    super(options.sessionId, options.host, options.events, options.keepAlive);
    this.#checks = options.checks;
    this.#retryMs = options.retryMs;
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
    if (this.closed) return responder.send(errorReply('sessionNotFound', 'Session not found'));
    if (request.method === 'POST') return this.#post(request, body, authInfo, responder);
    const refused = versionProblem(this.#supported, request);
    if (refused !== undefined) return responder.send(refused);
    if (request.method === 'GET') return this.#get(request, responder);
    await this.host.deleted();
    responder.send({ status: 200 });
  }

  async #post(
    request: TransportRequest,
    body: unknown,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    const messages = postedMessages(this.#checks, request, body);
    if (!Array.isArray(messages)) return responder.send(messages);
    const initialize = messages.find((message) => this.#checks.isInitializeRequest(message)) as
      { id: RequestId } | undefined;
    if (initialize !== undefined) {
      if (this.#initialized) {
        return responder.send(
          errorReply('invalidRequest', 'Invalid Request: this session is already initialized'),
        );
      }
      if (messages.length > 1) {
        return responder.send(
          errorReply(
            'invalidRequest',
            'Invalid Request: initialize must be sent alone, not in a batch',
          ),
        );
      }
      this.#initialized = true;
      this.host.initialized();
      // Answered with one JSON body, not a stream: nothing comes before the answer, and on a
      // stream the answer would be kept in the event store, long after anyone could want it.
      this.#initializing = { id: initialize.id, responder };
      this.onmessage?.(initialize as JSONRPCMessage, { authInfo });
      return;
    }
    if (!this.#initialized) {
      return responder.send(errorReply('badRequest', 'Bad Request: initialize first'));
    }
    const refused = versionProblem(this.#supported, request);
    if (refused !== undefined) return responder.send(refused);

    const requests = messages.filter((message) => this.#checks.isJSONRPCRequest(message));
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message, { authInfo });
      return responder.send({ status: 202, headers: { 'mcp-session-id': this.sessionId } });
    }

    const version =
      request.headers.get('mcp-protocol-version') ??
      this.#checks.DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    const stream = this.openCallStream(requests);
    const resumable = this.#resumable(version);
    const priming = resumable ? await this.#primingEvent(stream.id) : '';
    const sink = this.attach(stream, responder);
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
      this.events !== undefined && this.#supported.includes(version) && version >= '2025-11-25'
    );
  }

  /** The priming event of a new stream (its first id and the `retry`), or `''` without one. */
  async #primingEvent(streamId: string): Promise<string> {
    try {
      const id = await (this.events as EventStore).storeEvent(streamId, PRIMING);
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
        errorReply(
          'streamNotAcceptable',
          'Not Acceptable: the client must accept text/event-stream',
        ),
      );
    }
    const lastEventId = this.events === undefined ? null : request.headers.get('last-event-id');
    if (lastEventId !== null && lastEventId !== '') return this.replay(lastEventId, responder);
    if (this.standalone !== undefined) {
      return responder.send(
        errorReply('conflict', 'Conflict: this session already has its GET stream open'),
      );
    }
    this.attach(this.openStandalone(), responder);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isResponse(message);
    const requestId = response ? message.id : options?.relatedRequestId;
    if (requestId === undefined) {
      if (response) throw new Error('SessionTransport: a response needs the id of its request');
      // About no request of the client's: the session's GET stream.
      const eventId = await this.events?.storeEvent(STANDALONE_STREAM_ID, message);
      this.standalone?.sink?.write(sseEvent(message, eventId));
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
    const stream = this.streamOf(requestId);
    if (stream === undefined) {
      throw new Error(`SessionTransport: no stream is open for request ${String(requestId)}`);
    }
    const eventId = await this.events?.storeEvent(stream.id, message);
    stream.sink?.write(sseEvent(message, eventId));
    if (!response) return;
    if (!this.answered(stream, requestId)) return;
    // Every request of the stream is answered: it is done.
    if (stream.sink === undefined && this.events === undefined) {
      this.onerror?.(
        new Error(
          `SessionTransport: the response to request ${String(requestId)} is lost: its stream was dropped and nothing keeps events`,
        ),
      );
    }
    this.endStream(stream);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closeStreams();
    this.onclose?.();
  }
}
