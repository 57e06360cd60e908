import { checkOptionKeys, optionKeys } from '@parley/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { EventStore } from '@parley/server';

import { connectStore, type RedisClient, type RedisStoreOptions } from './redisClient.ts';

/** Options of {@link createRedisEventStore}. */
export interface RedisEventStoreOptions extends RedisStoreOptions {
  /** How long a stream's events stay replayable after its last event. Default 300 000 ms. */
  ttlMs?: number;
  /** The most events kept per stream; older ones are trimmed. Default 1000. */
  maxEventsPerStream?: number;
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
 * An SSE event store on Redis (`http.eventStore` of a `ParleyServer`), for resuming
 * handshake-era streams: a client whose stream dropped reconnects with `Last-Event-ID` and gets
 * what it missed, from what any process sharing the Redis stored. Each stream is a Redis
 * stream, `<prefix>events:<streamId>` (Parley names a session's streams
 * `<sessionId>/<streamId>`, so sessions never share one), trimmed to `maxEventsPerStream` and
 * expiring `ttlMs` after its last event. When Redis fails, every method rejects with a
 * `RedisStoreError`.
 */
const OPTION_KEYS = optionKeys<RedisEventStoreOptions>()([
  'prefix',
  'commandTimeoutMs',
  'ttlMs',
  'maxEventsPerStream',
]);

export function createRedisEventStore(
  client: RedisClient,
  options: RedisEventStoreOptions = {},
): EventStore {
  checkOptionKeys(API, 'options', options, OPTION_KEYS);
  const redis = connectStore(API, client, options);
  const ttlMs = positiveInteger('ttlMs', options.ttlMs ?? 300_000);
  const maxEvents = positiveInteger('maxEventsPerStream', options.maxEventsPerStream ?? 1_000);
  const keyOf = (streamId: string) => `${redis.prefix}events:${streamId}`;

  /** The stream and entry of an event id that is still stored, else `undefined`. */
  async function find(eventId: string): Promise<{ streamId: string; entry: string } | undefined> {
    const match = typeof eventId === 'string' ? EVENT_ID.exec(eventId) : null;
    if (match === null) return undefined;
    const [, streamId = '', entry = ''] = match;
    if (streamId === '') return undefined;
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
          `${API}: event ${JSON.stringify(lastEventId)} is not stored (expired or trimmed); the stream cannot be resumed`,
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
}
