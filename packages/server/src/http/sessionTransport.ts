import type {
  AuthInfo,
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/server';

import type { EventStore } from './eventStore.ts';
import type { SessionJournal } from './handover.ts';
import { discard, isKeptCall, isRequest, isResponse } from './keptMessages.ts';
import { SentRequests } from './sentRequests.ts';
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
  type Resumption,
  type StreamHost,
} from './sessionStreams.ts';
import { takeOver } from './takeOver.ts';
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
 * (`sessionStreams.ts`); the checks a request must pass are in `sessionRequestChecks.ts`; with
 * a session store, calls move between replicas (`handover.ts`, `sentRequests.ts`, `takeOver.ts`).
 */

/** What the transport tells the session it carries. */
export interface TransportHost extends StreamHost {
  /**
   * The client's `initialize` was accepted: the session exists from now on (and is kept, with
   * a session store, before the client hears of it). `undefined`: a kept session rebuilt.
   */
  initialized(initialize: JSONRPCMessage | undefined): Promise<void> | void;
  /** The client deleted the session. */
  deleted(): Promise<void>;
}

/** What a priming event stores: no message (one object for all, as stores keep it). */
const PRIMING = Object.freeze({}) as JSONRPCMessage;

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
  /** The session kept in the session store (before its client hears of it). */
  #kept: Promise<void> | void = undefined;
  /** The session's part of the session store: its calls can move to another replica. */
  readonly #journal: SessionJournal | undefined;
  /** With a journal: the requests this process sent the client, and where answers go. */
  readonly #sent: SentRequests | undefined;

  constructor(options: {
    sessionId: string;
    checks: MessageChecks;
    host: TransportHost;
    events: EventStore | undefined;
    retryMs: number;
    keepAlive: KeepAlive;
    journal?: SessionJournal | undefined;
  }) {
    super(options.sessionId, options.host, options.events, options.keepAlive);
    this.#journal = options.journal;
    this.#sent =
      options.journal === undefined
        ? undefined
        : new SentRequests(options.journal, {
            deliver: (message, authInfo) => this.onmessage?.(message, { authInfo }),
            failed: (error) => this.#failed(error),
          });
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
    if (request.method === 'GET') return this.#get(request, authInfo, responder);
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
      this.#kept = this.host.initialized(initialize as JSONRPCMessage);
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
      for (const message of messages) {
        if (!(await this.#answer(message, authInfo))) {
          return responder.send(
            errorReply(
              'serviceUnavailable',
              'Service Unavailable: the answer could not be kept; send it again',
              { headers: { 'retry-after': '1' } },
            ),
          );
        }
      }
      return responder.send({ status: 202, headers: { 'mcp-session-id': this.sessionId } });
    }

    const version =
      request.headers.get('mcp-protocol-version') ??
      this.#checks.DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    const stream = this.openCallStream(requests);
    const resumable = this.#resumable(version);
    const call = requests.length === 1 ? requests[0] : undefined;
    if (resumable && this.#journal !== undefined && call !== undefined && isKeptCall(call)) {
      // Kept before the stream opens: a client that has an event id of it can always resume it.
      stream.journal = await this.#journal.begin(stream.id, call).catch((error: unknown) => {
        this.#failed(error);
        return undefined;
      });
    }
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

  /**
   * A message of the client's that is no request: a notification, or the answer to a request of
   * the server's (with a journal, kept first: see `sentRequests.ts`). `false`: an answer for
   * another replica that could not be kept.
   */
  async #answer(message: JSONRPCMessage, authInfo: AuthInfo | undefined): Promise<boolean> {
    if (this.#sent !== undefined) return this.#sent.answer(message, authInfo);
    this.onmessage?.(message, { authInfo });
    return true;
  }

  #failed(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }

  /**
   * Rebuild a kept session on this replica: its `initialize` goes to the SDK again (what the
   * client declared, the version it speaks), its answer to no one.
   */
  async restore(initialize: JSONRPCMessage): Promise<void> {
    this.#initialized = true;
    await this.host.initialized(undefined);
    await new Promise<void>((resolve) => {
      this.#initializing = {
        id: (initialize as { id: RequestId }).id,
        responder: discard(resolve),
      };
      this.onmessage?.(initialize);
    });
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  }

  protected override resumeElsewhere(resumption: Resumption): Promise<void> | void {
    const journal = this.#journal;
    if (journal === undefined) return super.resumeElsewhere(resumption);
    const { streamId, authInfo } = resumption;
    return takeOver(resumption, {
      journal,
      events: this.events as EventStore,
      headers: { 'mcp-session-id': this.sessionId },
      finish: () => super.resumeElsewhere(resumption),
      adopt: (requestId) => this.adoptCallStream(streamId, requestId),
      attach: (stream) => this.attach(stream, resumption.responder),
      run: (request) =>
        this.onmessage?.(request, {
          authInfo,
          closeSSEStream: () => this.closeSSEStream(request.id),
        }),
    });
  }

  async #get(
    request: TransportRequest,
    authInfo: AuthInfo | undefined,
    responder: Responder,
  ): Promise<void> {
    if (request.headers.get('accept')?.includes('text/event-stream') !== true) {
      return responder.send(
        errorReply(
          'streamNotAcceptable',
          'Not Acceptable: the client must accept text/event-stream',
        ),
      );
    }
    const lastEventId = this.events === undefined ? null : request.headers.get('last-event-id');
    if (lastEventId !== null && lastEventId !== '') {
      return this.replay(lastEventId, responder, authInfo);
    }
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
      if (isRequest(message)) await this.#sent?.sent(message, undefined);
      // About no request of the client's: the session's GET stream.
      const eventId = await this.events?.storeEvent(STANDALONE_STREAM_ID, message);
      this.standalone?.sink?.write(sseEvent(message, eventId));
      return;
    }
    const initializing = this.#initializing;
    if (initializing !== undefined && requestId === initializing.id) {
      if (!response) return;
      this.#initializing = undefined;
      // Kept before the client hears of it: any replica can serve its next request.
      await this.#kept;
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
    if (stream.handedOver) {
      // Another replica goes on with the call: this run's ending (and the cancellation of its
      // question) is nobody's news.
      if (response && this.answered(stream, requestId)) this.endStream(stream);
      return;
    }
    // A kept call's question is kept before the client sees it: a replica that takes the call
    // over waits for its answer instead of asking again.
    if (isRequest(message)) await this.#sent?.sent(message, stream);
    const eventId = await this.events?.storeEvent(stream.id, message);
    stream.sink?.write(sseEvent(message, eventId));
    if (!response) return;
    if (!this.answered(stream, requestId)) return;
    if (stream.journal !== undefined) {
      stream.journal.finished();
      this.#sent?.streamDone(stream);
    }
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
    this.#sent?.close();
    this.closeStreams();
    this.onclose?.();
  }
}
