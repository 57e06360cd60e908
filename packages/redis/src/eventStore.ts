import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

import { connectStore, type RedisClient, type RedisStoreOptions } from './redisClient.ts';

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions extends RedisStoreOptions {
  /** How long a stream's events stay replayable after its last event. Default 300 000 ms. */
  ttlMs?: number;
  /** The most events kept per stream; older ones are trimmed. Default 1000. */
  maxEventsPerStream?: number;
}

/** Event stores on one Redis, one per MCP session. */
export interface RedisEventStore {
  /**
   * The SDK `EventStore` of one session (the `eventStore` of its Streamable HTTP transport).
   * Stream ids repeat between sessions (every session's standalone GET stream has the same
   * one), so each session's events live under its own keys, and an event id of one session
   * finds nothing in another.
   */
  forSession(sessionId: string): EventStore;
}

const API = 'createRedisEventStore';

/** KEYS: stream. ARGV: max events, message, ttl ms. */
const STORE = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'm', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return id
`;

// An event id is `<streamId>/<entry id>`: the stream it belongs to, and its Redis stream entry
// (`<ms>-<seq>`, ordered), which is where a replay starts.
const EVENT_ID = /^(.*)\/(\d+-\d+)$/s;
const REPLAY_BATCH = 100;

type Entries = [id: string, fields: string[]][];

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${API}: ${name} must be a positive integer (got ${String(value)})`);
  }
  return value;
}

/**
 * SSE event stores on Redis, for resuming handshake-era streams: a client whose stream dropped
 * reconnects with `Last-Event-ID` and gets what it missed, from any process that shares the
 * Redis. Each stream is a Redis stream, `<prefix>events:{<sessionId>}:<streamId>`, trimmed to
 * `maxEventsPerStream` and expiring `ttlMs` after its last event. When Redis fails, every
 * method rejects with a `RedisStoreError`.
 */
export function createRedisEventStore(
  client: RedisClient,
  options: RedisEventStoreOptions = {},
): RedisEventStore {
  const redis = connectStore(API, client, options);
  const ttlMs = positiveInteger('ttlMs', options.ttlMs ?? 300_000);
  const maxEvents = positiveInteger('maxEventsPerStream', options.maxEventsPerStream ?? 1_000);

  return {
    forSession(sessionId) {
      if (typeof sessionId !== 'string' || sessionId === '') {
        throw new TypeError(`${API}: forSession(sessionId) needs a non-empty string`);
      }
      const keyOf = (streamId: string) => `${redis.prefix}events:{${sessionId}}:${streamId}`;

      /** The stream and entry of an event id that is still stored, else `undefined`. */
      async function find(
        eventId: string,
      ): Promise<{ streamId: string; entry: string } | undefined> {
        const match = typeof eventId === 'string' ? EVENT_ID.exec(eventId) : null;
        if (match === null) return undefined;
        const [, streamId = '', entry = ''] = match;
        const found = (await redis.command(['XRANGE', keyOf(streamId), entry, entry])) as Entries;
        return found.length === 1 ? { streamId, entry } : undefined;
      }

      return {
        async storeEvent(streamId: string, message: JSONRPCMessage) {
          if (typeof streamId !== 'string' || streamId === '') {
            throw new TypeError(`${API}: storeEvent(streamId) needs a non-empty string`);
          }
          const entry = await redis.script(
            STORE,
            [keyOf(streamId)],
            [maxEvents, JSON.stringify(message), ttlMs],
          );
          return `${streamId}/${String(entry)}`;
        },
        async getStreamIdForEventId(eventId: string) {
          return (await find(eventId))?.streamId;
        },
        async replayEventsAfter(lastEventId, { send }) {
          const found = await find(lastEventId);
          if (found === undefined) {
            // Replaying from an event we no longer have would skip what came between.
            throw new RangeError(
              `${API}: event ${JSON.stringify(lastEventId)} is not stored (expired, trimmed, or of another session); the stream cannot be resumed`,
            );
          }
          const key = keyOf(found.streamId);
          let after = found.entry;
          for (;;) {
            const batch = (await redis.command([
              'XRANGE',
              key,
              `(${after}`,
              '+',
              'COUNT',
              REPLAY_BATCH,
            ])) as Entries;
            for (const [entry, fields] of batch) {
              after = entry;
              const message = JSON.parse(fields[fields.indexOf('m') + 1] ?? '{}') as JSONRPCMessage;
              // The priming event (`{}`) only gave the client an id to resume from.
              if (Object.keys(message).length === 0) continue;
              await send(`${found.streamId}/${entry}`, message);
            }
            if (batch.length < REPLAY_BATCH) return found.streamId;
          }
        },
      };
    },
  };
}
