import { checkOptionKeys, optionKeys } from '@parley/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';

import { randomUUID } from '../utils/randomness.ts';

/**
 * Resumable SSE streams for handshake-era sessions (SEP-1699). Every message a session sends on
 * an SSE stream (the call's POST stream, or the session's GET stream) is stored first, under an
 * event id the client sees; a client whose stream drops reconnects with `GET` and
 * `Last-Event-ID`, and gets every later event of that stream replayed before the stream carries
 * on. So a call that asked the user something (`ctx.elicit`) survives a dropped connection.
 *
 * Parley defines this interface rather than exporting the SDK's `EventStore`: it is the SDK's
 * shape (so a store written for the SDK fits), with `getStreamIdForEventId` required, because without it an unknown `Last-Event-ID` cannot be
 * refused with a `400` before a stream is opened. Stores for several processes (Redis…)
 * implement exactly this.
 *
 * One store serves every session of a server: Parley hands it a session's streams as
 * `<sessionId>/<streamId>`, so a store needs to know nothing about sessions, and an event id of
 * one session never resumes another's stream.
 */

/** Which stream an event belongs to: opaque, made by the server. */
export type StreamId = string;
/** An event's id, as the client sees it in `id:` and sends back in `Last-Event-ID`. */
export type EventId = string;

/** Where the events of resumable streams are kept until a client might ask for them again. */
export interface EventStore {
  /**
   * Keep `message`, sent on `streamId`, and return its new event id: unique across every stream
   * of the store, opaque to clients, later than every id this stream had before. The first
   * event of every stream is the priming event, whose message is `{}`.
   */
  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId>;
  /**
   * The stream `eventId` belongs to, or `undefined` for an id this store does not know (never
   * issued, or forgotten): the client then gets a `400` instead of a stream. Called with
   * whatever a client sent, so any string must be answered, not thrown on.
   */
  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined>;
  /**
   * Send, in order, every event of `lastEventId`'s stream stored after it (awaiting each
   * `send`), and return that stream's id. The priming event is never replayed.
   */
  replayEventsAfter(
    lastEventId: EventId,
    handlers: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId>;
}

/** Options of {@link createMemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** The most events kept, across every stream; the oldest go first. Default 10 000. */
  maxEvents?: number;
  /** How long an event is kept for a client that might come back. Default 300 000 (5 minutes). */
  ttlMs?: number;
  /** Milliseconds since the epoch; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

interface StoredEvent {
  id: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
  at: number;
}

const API = 'createMemoryEventStore';

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${API}: ${name} must be a positive integer (got ${String(value)})`);
  }
  return value;
}

function isPriming(message: JSONRPCMessage): boolean {
  return Object.keys(message).length === 0;
}

/**
 * An {@link EventStore} in this process's memory, bounded in count and age: right for one
 * process (handshake sessions live on the process that opened them anyway).
 */
const MEMORY_STORE_OPTIONS = optionKeys<MemoryEventStoreOptions>()(['maxEvents', 'ttlMs', 'now']);

export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  checkOptionKeys('createMemoryEventStore', 'options', options, MEMORY_STORE_OPTIONS);
  const maxEvents = positive('maxEvents', options.maxEvents ?? 10_000);
  const ttlMs = positive('ttlMs', options.ttlMs ?? 300_000);
  const now = options.now ?? Date.now;
  // Insertion order is age order: the oldest event is always first.
  const events = new Map<EventId, StoredEvent>();
  const streams = new Map<StreamId, StoredEvent[]>();
  // Ids are unguessable across restarts and processes: an id from elsewhere is simply unknown.
  const prefix = randomUUID().slice(0, 8);
  let counter = 0;

  function forgetOldest(): void {
    const oldest = events.values().next().value as StoredEvent | undefined;
    if (oldest === undefined) return;
    events.delete(oldest.id);
    const stream = streams.get(oldest.streamId);
    stream?.shift();
    if (stream?.length === 0) streams.delete(oldest.streamId);
  }

  function evict(time: number): void {
    while (events.size > 0) {
      const oldest = events.values().next().value as StoredEvent;
      if (events.size <= maxEvents && time - oldest.at < ttlMs) return;
      forgetOldest();
    }
  }

  return {
    async storeEvent(streamId, message) {
      const time = now();
      const event: StoredEvent = {
        id: `${prefix}-${(counter++).toString(36)}`,
        streamId,
        message,
        at: time,
      };
      events.set(event.id, event);
      const stream = streams.get(streamId);
      if (stream === undefined) streams.set(streamId, [event]);
      else stream.push(event);
      evict(time);
      return event.id;
    },

    async getStreamIdForEventId(eventId) {
      evict(now());
      return events.get(eventId)?.streamId;
    },

    async replayEventsAfter(lastEventId, { send }) {
      evict(now());
      const last = events.get(lastEventId);
      if (last === undefined) throw new Error(`${API}: unknown event id`);
      const stream = streams.get(last.streamId) ?? [];
      for (const event of stream.slice(stream.indexOf(last) + 1)) {
        if (!isPriming(event.message)) await send(event.id, event.message);
      }
      return last.streamId;
    },
  };
}

/**
 * One session's view of the server's store, as that session's transport needs it. A session's
 * streams have ids of their own (every session's `GET` stream is `_GET_stream`), so the store
 * keeps them as `<sessionId>/<streamId>`: one store serves every session, and an event id of
 * one session finds nothing in another (a `400`, as for an id never issued).
 */
export function sessionEventStore(store: EventStore, sessionId: string): EventStore {
  return new SessionEventStore(store, `${sessionId}/`);
}

/** A class, so a session's view is one object, not a closure per method. */
class SessionEventStore implements EventStore {
  readonly #store: EventStore;
  /** `<sessionId>/`, made once: a session lives long, and stores on every event. */
  readonly #prefix: string;

  constructor(store: EventStore, prefix: string) {
    this.#store = store;
    this.#prefix = prefix;
  }

  #own(streamId: StreamId | undefined): StreamId | undefined {
    return streamId?.startsWith(this.#prefix) === true
      ? streamId.slice(this.#prefix.length)
      : undefined;
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.#store.storeEvent(this.#prefix + streamId, message);
  }
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#own(await this.#store.getStreamIdForEventId(eventId));
  }

  async replayEventsAfter(
    lastEventId: EventId,
    handlers: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    if (this.#own(await this.#store.getStreamIdForEventId(lastEventId)) === undefined) {
      throw new RangeError(`event ${JSON.stringify(lastEventId)} is not of this session`);
    }
    const streamId = this.#own(await this.#store.replayEventsAfter(lastEventId, handlers));
    if (streamId === undefined) {
      throw new Error(`the event store replayed a stream of another session`);
    }
    return streamId;
  }
}
