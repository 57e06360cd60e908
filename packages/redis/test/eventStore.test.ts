import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

import { RedisStoreError, createRedisEventStore } from '../src/index.ts';
import { startRedis, type RedisProcess } from './helpers/redisServer.ts';

const binary = inject('redisServer');

const notification = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});

async function replay(store: EventStore, lastEventId: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (eventId, message) => {
      sent.push([eventId, message]);
    },
  });
  return { streamId, sent };
}

describe.skipIf(binary === null)('the Redis event store, on a real redis-server', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis(binary!);
  });
  afterAll(() => redis?.dispose());

  test('what one process stored, another replays: every event after the last one seen, in order', async () => {
    // Two connections, as two processes sharing the Redis would have.
    const writer = createRedisEventStore(await redis.client()).forSession('session-1');
    const reader = createRedisEventStore(await redis.client()).forSession('session-1');
    const ids: string[] = [];
    for (let n = 0; n < 250; n++) ids.push(await writer.storeEvent('stream-a', notification(n)));
    await writer.storeEvent('stream-b', notification(999));

    expect(await reader.getStreamIdForEventId!(ids[9]!)).toBe('stream-a');
    const { streamId, sent } = await replay(reader, ids[9]!);
    expect(streamId).toBe('stream-a');
    expect(sent.map(([id]) => id)).toEqual(ids.slice(10));
    expect(sent.map(([, message]) => message)).toEqual(
      Array.from({ length: 240 }, (_, i) => notification(i + 10)),
    );
    expect((await replay(reader, ids.at(-1)!)).sent).toEqual([]);
  });

  test('the priming event (an empty message) is stored, resumable from, and never replayed', async () => {
    const store = createRedisEventStore(await redis.client()).forSession('primed');
    const priming = await store.storeEvent('stream', {} as JSONRPCMessage);
    const first = await store.storeEvent('stream', notification(1));
    expect(await store.getStreamIdForEventId!(priming)).toBe('stream');
    expect((await replay(store, priming)).sent).toEqual([[first, notification(1)]]);
  });

  test('sessions do not see each other’s streams, even under the same stream id', async () => {
    const events = createRedisEventStore(await redis.client());
    const mine = events.forSession('mine');
    const theirs = events.forSession('theirs');
    const first = await mine.storeEvent('_GET_stream', notification(1));
    await mine.storeEvent('_GET_stream', notification(2));
    await theirs.storeEvent('_GET_stream', notification(3));
    expect(await theirs.getStreamIdForEventId!(first)).toBeUndefined();
    await expect(replay(theirs, first)).rejects.toThrow(/is not stored/);
    expect((await replay(mine, first)).sent.map(([, m]) => m)).toEqual([notification(2)]);
  });

  test('an unknown, malformed, trimmed or expired event id finds nothing', async () => {
    const client = await redis.client();
    const store = createRedisEventStore(client, {
      prefix: 'small:',
      maxEventsPerStream: 10,
      ttlMs: 200,
    }).forSession('s');
    expect(await store.getStreamIdForEventId!('garbage')).toBeUndefined();
    expect(await store.getStreamIdForEventId!('stream/1-0')).toBeUndefined();
    const oldest = await store.storeEvent('stream', notification(0));
    for (let n = 1; n < 500; n++) await store.storeEvent('stream', notification(n));
    // Trimmed: replaying after it would skip what was dropped, so it is refused.
    expect(await store.getStreamIdForEventId!(oldest)).toBeUndefined();
    const latest = await store.storeEvent('stream', notification(500));
    expect(
      Number(await client.sendCommand(['PTTL', 'small:events:{s}:stream'])),
    ).toBeLessThanOrEqual(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.getStreamIdForEventId!(latest)).toBeUndefined();
  });

  test('Redis down: every method rejects with a RedisStoreError', async () => {
    const store = createRedisEventStore(await redis.client(), { prefix: 'down:' }).forSession('s');
    const id = await store.storeEvent('stream', notification(1));
    await redis.stop();
    try {
      await expect(store.storeEvent('stream', notification(2))).rejects.toThrow(RedisStoreError);
      await expect(store.getStreamIdForEventId!(id)).rejects.toThrow(RedisStoreError);
      await expect(replay(store, id)).rejects.toThrow(
        /^createRedisEventStore: Redis is not connected/,
      );
    } finally {
      await redis.start();
    }
  });
});

describe('the Redis event store refuses bad arguments', () => {
  const client = { isReady: true, sendCommand: async () => [] };
  test('options and session ids', () => {
    expect(() => createRedisEventStore(client, { ttlMs: 0 })).toThrow(
      'createRedisEventStore: ttlMs must be a positive integer (got 0)',
    );
    expect(() => createRedisEventStore(client, { maxEventsPerStream: 1.5 })).toThrow(RangeError);
    expect(() => createRedisEventStore(client).forSession('')).toThrow(TypeError);
  });
});
