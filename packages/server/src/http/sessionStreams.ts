import type { AuthInfo, JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

import type { EventStore } from './eventStore.ts';
import type { CallJournal } from './handover.ts';
import { randomUUID } from '../utils/randomness.ts';
import type { KeepAlive } from './keepAlive.ts';
import { errorReply } from '../modern/errorReply.ts';
import type { EventSink, Responder } from './wire.ts';

/**
 * The SSE streams of one handshake-era session, as its transport keeps them: the streams of its
 * calls (one per POST with requests, living while any of them is unanswered) and its `GET`
 * stream; which of them the client reads now, and what follows from that (the endpoint's
 * keep-alive, the session told when a call's stream opens and ends); and a stream resumed with
 * `Last-Event-ID`, replayed from the session's event store.
 *
 * A base class of `SessionTransport` rather than an object it holds: a pending session keeps
 * its transport for minutes, by thousands at once, and this way the bookkeeping costs no object
 * of its own. The transport decides what goes on which stream, and when one is done with.
 */

/** What a session hears of its streams. */
export interface StreamHost {
  /** The client reads a stream of one of its calls now (a POST's, or one it resumed). */
  callStreamOpened(): void;
  /** A call's stream is done with: ended, or dropped by the client. */
  callStreamEnded(): void;
}

/** The id of a session's `GET` stream in its event store (the SDK's name for it). */
export const STANDALONE_STREAM_ID = '_GET_stream';

/** One SSE stream of a session: a call's (a POST's), or the session's `GET` stream. */
export class SessionStream {
  readonly id: string;
  readonly ofCall: boolean;
  /** Where its events go while the client reads it. */
  sink: EventSink | undefined = undefined;
  /** The requests answered on it that have no response yet (a call stream lives while any has). */
  readonly unanswered: RequestId[] = [];
  /** The record kept of its call, for another replica to take it over (`http.sessionStore`). */
  journal: CallJournal | undefined = undefined;
  /** Its call went to another replica: nothing more of it is sent from here. */
  handedOver = false;

  constructor(id: string, ofCall: boolean) {
    this.id = id;
    this.ofCall = ofCall;
  }
}

/** An event replayed from the store: its id, and its message. */
export interface ReplayedEvent {
  id: string;
  message: JSONRPCMessage;
}

/** A resumed stream of a call this process does not run, as {@link SessionStreams.resumeElsewhere} gets it. */
export interface Resumption {
  streamId: string;
  /** What the client sent in `Last-Event-ID`. */
  lastEventId: string;
  /** The events it missed, as SSE, and one by one. */
  missed: string;
  events: readonly ReplayedEvent[];
  responder: Responder;
  authInfo: AuthInfo | undefined;
}

/** One message as an SSE event, with its id in the event store if it has one. */
export function sseEvent(message: JSONRPCMessage, eventId: string | undefined): string {
  const id = eventId === undefined ? '' : `id: ${eventId}\n`;
  return `event: message\n${id}data: ${JSON.stringify(message)}\n\n`;
}

/**
 * The streams of one session, for its transport to extend. Its own helpers are TypeScript's
 * `private`, not `#`: a class with `#` methods puts a brand on each of its instances, and with the
 * transport's own that would be two per session, one slot more than the transport had alone.
 */
export abstract class SessionStreams<Host extends StreamHost> {
  readonly sessionId: string;
  readonly #host: Host;
  readonly #events: EventStore | undefined;
  readonly #keepAlive: KeepAlive;
  /**
   * The call streams with requests unanswered. A list, not maps by request and stream id: a
   * session has a call or two in flight at once, and a map costs more than the search.
   */
  readonly #calls: SessionStream[] = [];
  /** The session's `GET` stream, while the client reads it. */
  #standalone: SessionStream | undefined;
  /**
   * Stream ids: unique within the session (the event store qualifies them with its id), across
   * the replicas that may serve it too (each begins its own with a prefix of its own).
   */
  #nextStream = 0;
  readonly #streamPrefix = randomUUID().slice(0, 8);
  #closed = false;

  constructor(sessionId: string, host: Host, events: EventStore | undefined, keepAlive: KeepAlive) {
    this.sessionId = sessionId;
    this.#host = host;
    this.#events = events;
    this.#keepAlive = keepAlive;
  }

  /** The session the streams are of. */
  protected get host(): Host {
    return this.#host;
  }

  /** Where the session's events are kept; `undefined`: its streams are not resumable. */
  protected get events(): EventStore | undefined {
    return this.#events;
  }

  /** The session is closed: its streams are ended, and none opens again. */
  protected get closed(): boolean {
    return this.#closed;
  }

  /** The session's `GET` stream, while the client reads it. */
  protected get standalone(): SessionStream | undefined {
    return this.#standalone;
  }

  /** A new call stream, for `requests` (the requests of one POST). */
  protected openCallStream(requests: readonly JSONRPCMessage[]): SessionStream {
    const stream = new SessionStream(`${this.#streamPrefix}.${this.#nextStream++}`, true);
    for (const message of requests) stream.unanswered.push((message as { id: RequestId }).id);
    this.#calls.push(stream);
    return stream;
  }

  /** The stream `id` of a call another replica began, taken over here. */
  protected adoptCallStream(id: string, requestId: RequestId): SessionStream {
    const stream = new SessionStream(id, true);
    stream.unanswered.push(requestId);
    this.#calls.push(stream);
    return stream;
  }

  /**
   * A client resumed the stream `streamId` of a call this process does not run: one answered
   * while the client was away (the replay holds its response), or one another replica began.
   * Here: send what was missed and end the stream; a transport that can take calls over
   * overrides this.
   */
  protected resumeElsewhere({ missed, responder }: Resumption): Promise<void> | void {
    const sink = responder.events({ 'mcp-session-id': this.sessionId });
    sink.write(missed);
    sink.end();
  }

  /** The session's `GET` stream: the one it has, or a new one. */
  protected openStandalone(): SessionStream {
    return (this.#standalone ??= new SessionStream(STANDALONE_STREAM_ID, false));
  }

  /** The stream `requestId` is answered on, until its response is sent. */
  protected streamOf(requestId: RequestId): SessionStream | undefined {
    return this.#calls.find((stream) => stream.unanswered.includes(requestId));
  }

  /** The call stream `id`, while a request of it is unanswered. */
  private callStream(id: string): SessionStream | undefined {
    return this.#calls.find((stream) => stream.id === id);
  }

  /** Resume a stream after `lastEventId`: what the client missed, then what comes next. */
  protected async replay(
    lastEventId: string,
    responder: Responder,
    authInfo: AuthInfo | undefined,
  ): Promise<void> {
    const events = this.#events as EventStore;
    const streamId = await events.getStreamIdForEventId(lastEventId).catch(() => undefined);
    if (streamId === undefined) {
      return responder.send(
        errorReply('badRequest', 'Bad Request: Last-Event-ID names no event of this session'),
      );
    }
    const ofCall = streamId !== STANDALONE_STREAM_ID;
    if ((ofCall ? this.callStream(streamId) : this.#standalone)?.sink !== undefined) {
      return responder.send(errorReply('conflict', 'Conflict: that stream is already being read'));
    }
    // Gathered first, written at once: a store that fails mid-way gets a clean 4xx, not a
    // stream cut short.
    let missed = '';
    const replayed: ReplayedEvent[] = [];
    try {
      await events.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => {
          missed += sseEvent(message, eventId);
          if (ofCall) replayed.push({ id: eventId, message });
        },
      });
    } catch {
      return responder.send(
        errorReply(
          'badRequest',
          'Bad Request: the events after that Last-Event-ID cannot be replayed',
        ),
      );
    }
    if (this.#closed) return responder.send(errorReply('sessionNotFound', 'Session not found'));
    // Nothing missed: the stream still opens with the id the client resumed from (no data, as a
    // priming event), so a client whose resumed stream ends before any new event knows where to
    // resume again. It tracks the last id per stream, and a stream without one resumes nothing.
    if (missed === '') missed = `id: ${lastEventId}\ndata: \n\n`;
    let stream: SessionStream | undefined;
    if (ofCall) stream = this.callStream(streamId);
    else stream = this.openStandalone();
    if (stream?.sink !== undefined) {
      return responder.send(errorReply('conflict', 'Conflict: that stream is already being read'));
    }
    if (stream === undefined) {
      return this.resumeElsewhere({
        streamId,
        lastEventId,
        missed,
        events: replayed,
        responder,
        authInfo,
      });
    }
    const sink = this.attach(stream, responder);
    if (missed !== '') sink.write(missed);
  }

  /**
   * `requestId`, of `stream`, has its response: is that the last of the stream's? Then the
   * stream is no call's any more (ending it is the caller's to do).
   */
  protected answered(stream: SessionStream, requestId: RequestId): boolean {
    stream.unanswered.splice(stream.unanswered.indexOf(requestId), 1);
    if (stream.unanswered.length > 0) return false;
    this.#calls.splice(this.#calls.indexOf(stream), 1);
    return true;
  }

  /** Open the response as `stream`'s SSE stream. */
  protected attach(stream: SessionStream, responder: Responder): EventSink {
    const sink = responder.events({ 'mcp-session-id': this.sessionId }, () =>
      this.dropped(stream, sink),
    );
    stream.sink = sink;
    this.#keepAlive.add(sink);
    if (stream.ofCall) this.#host.callStreamOpened();
    return sink;
  }

  /** The client stopped reading `sink` (it may be `stream`'s no more). */
  private dropped(stream: SessionStream, sink: EventSink): void {
    if (stream.sink !== sink) return;
    this.detach(stream);
  }

  private detach(stream: SessionStream): EventSink | undefined {
    const sink = stream.sink;
    if (sink === undefined) return undefined;
    stream.sink = undefined;
    this.#keepAlive.delete(sink);
    if (stream === this.#standalone) this.#standalone = undefined;
    if (stream.ofCall) this.#host.callStreamEnded();
    return sink;
  }

  /** End `stream`'s response, if the client still reads it. */
  protected endStream(stream: SessionStream): void {
    this.detach(stream)?.end();
  }

  /**
   * Hand the call `requestId` to another replica (this one is draining): its record says no one
   * runs it, its stream ends so its client reconnects (the balancer sends it elsewhere), and
   * nothing more of it is sent from here. `false`: the call has no record to go on from.
   */
  async handOver(requestId: RequestId): Promise<boolean> {
    const stream = this.streamOf(requestId);
    if (stream?.journal === undefined || stream.handedOver) return false;
    stream.handedOver = true;
    try {
      await stream.journal.handOver();
    } catch {
      // The store failed: the call cannot go on elsewhere; it is abandoned as before.
      stream.handedOver = false;
      return false;
    }
    this.endStream(stream);
    return true;
  }

  /** The record of the call `requestId`, when one is kept. */
  keptCall(requestId: RequestId): SessionStream['journal'] {
    return this.streamOf(requestId)?.journal;
  }

  /** End the stream of a request, so its client reconnects (SSE polling, SEP-1699). */
  closeSSEStream(requestId: RequestId): void {
    const stream = this.streamOf(requestId);
    if (stream !== undefined) this.endStream(stream);
  }

  /** End the session's `GET` stream, so its client reconnects (elsewhere, when draining). */
  closeStandaloneSSEStream(): void {
    if (this.#standalone !== undefined) this.endStream(this.#standalone);
  }

  /** The session is closed: end every stream the client still reads, and forget the calls'. */
  protected closeStreams(): void {
    this.#closed = true;
    for (const stream of this.#calls) this.endStream(stream);
    if (this.#standalone !== undefined) this.endStream(this.#standalone);
    this.#calls.length = 0;
  }
}
