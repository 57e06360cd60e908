import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { EventStore } from '@parley/server';
import { ParleyServer } from '@parley/server';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import * as z from 'zod';

import { RedisStoreError, createRedisEventStore } from '../src/index.ts';
import { startRedis, type RedisProcess } from './helpers/redisServer.ts';

const binary = inject('redisServer');
const WRITER = fileURLToPath(new URL('./helpers/eventWriterMain.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

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
    const writer = createRedisEventStore(await redis.client());
    const reader = createRedisEventStore(await redis.client());
    const ids: string[] = [];
    for (let n = 0; n < 250; n++) ids.push(await writer.storeEvent('stream-a', notification(n)));
    await writer.storeEvent('stream-b', notification(999));

    expect(await reader.getStreamIdForEventId(ids[9]!)).toBe('stream-a');
    const { streamId, sent } = await replay(reader, ids[9]!);
    expect(streamId).toBe('stream-a');
    expect(sent.map(([id]) => id)).toEqual(ids.slice(10));
    expect(sent.map(([, message]) => message)).toEqual(
      Array.from({ length: 240 }, (_, i) => notification(i + 10)),
    );
    expect((await replay(reader, ids.at(-1)!)).sent).toEqual([]);
  });

  test('what a process that has exited stored, this process replays after its Last-Event-ID', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@parley/source', '--import', 'tsx', WRITER],
      {
        cwd: ROOT,
        env: { ...process.env, REDIS_PORT: String(redis.port), STREAM: 'gone/stream', COUNT: '20' },
      },
    );
    const [priming, ...ids] = JSON.parse(stdout) as string[];
    const reader = createRedisEventStore(await redis.client());
    expect(await reader.getStreamIdForEventId(ids[4]!)).toBe('gone/stream');
    const { streamId, sent } = await replay(reader, ids[4]!);
    expect(streamId).toBe('gone/stream');
    expect(sent.map(([id]) => id)).toEqual(ids.slice(5));
    expect(sent.map(([, message]) => message)).toEqual(
      Array.from({ length: 15 }, (_, i) => notification(i + 5)),
    );
    // From the priming event: every event, never the priming event itself.
    expect((await replay(reader, priming!)).sent).toHaveLength(20);
  }, 60_000);

  test('the priming event (an empty message) is stored, resumable from, and never replayed', async () => {
    const store = createRedisEventStore(await redis.client(), { prefix: 'primed:' });
    const priming = await store.storeEvent('stream', {} as JSONRPCMessage);
    const first = await store.storeEvent('stream', notification(1));
    expect(await store.getStreamIdForEventId(priming)).toBe('stream');
    expect((await replay(store, priming)).sent).toEqual([[first, notification(1)]]);
  });

  test('streams do not see each other’s events, even where one stream id ends like another', async () => {
    const events = createRedisEventStore(await redis.client(), { prefix: 'apart:' });
    // Parley names a session's streams `<sessionId>/<streamId>`. Redis numbers each stream's
    // entries `<ms>-<seq>` on its own, so two streams written in the same millisecond share entry
    // ids: theirs is written a few milliseconds before mine, so no entry of mine is one of theirs.
    await events.storeEvent('theirs/_GET_stream', notification(3));
    const theirs = await events.storeEvent('theirs/_GET_stream', notification(4));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const first = await events.storeEvent('mine/_GET_stream', notification(1));
    await events.storeEvent('mine/_GET_stream', notification(2));
    expect(await events.getStreamIdForEventId(first)).toBe('mine/_GET_stream');
    expect(await events.getStreamIdForEventId(theirs)).toBe('theirs/_GET_stream');
    expect((await replay(events, first)).sent.map(([, m]) => m)).toEqual([notification(2)]);
    // The entry of one stream, named as another's, is not found.
    const entry = first.slice(first.lastIndexOf('/') + 1);
    expect(await events.getStreamIdForEventId(`theirs/_GET_stream/${entry}`)).toBeUndefined();
    await expect(replay(events, `theirs/_GET_stream/${entry}`)).rejects.toThrow(/is not stored/);
  });

  test('an unknown, malformed, trimmed or expired event id finds nothing', async () => {
    const client = await redis.client();
    const store = createRedisEventStore(client, {
      prefix: 'small:',
      maxEventsPerStream: 10,
      ttlMs: 200,
    });
    expect(await store.getStreamIdForEventId('garbage')).toBeUndefined();
    expect(await store.getStreamIdForEventId('stream/1-0')).toBeUndefined();
    const oldest = await store.storeEvent('stream', notification(0));
    for (let n = 1; n < 500; n++) await store.storeEvent('stream', notification(n));
    // Trimmed: replaying after it would skip what was dropped, so it is refused.
    expect(await store.getStreamIdForEventId(oldest)).toBeUndefined();
    const latest = await store.storeEvent('stream', notification(500));
    expect(Number(await client.sendCommand(['PTTL', 'small:events:stream']))).toBeLessThanOrEqual(
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await store.getStreamIdForEventId(latest)).toBeUndefined();
  });

  test('as a server’s http.eventStore: a dropped ctx.elicit stream resumes from what Redis kept', async () => {
    const client = await redis.client();
    const mcp = new ParleyServer({
      name: 'resumable',
      onWarning: () => {},
      onError: () => {},
      http: { eventStore: createRedisEventStore(client, { prefix: 'served:' }) },
    });
    mcp.tool('ask', async (_args, ctx) => {
      const answer = await ctx.elicit('Where to?', z.object({ city: z.string() }));
      return answer.action;
    });
    const running = await mcp.run({ transport: 'http', port: 0 });
    try {
      const url = running.url as string;
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const init = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: { elicitation: { form: {} } },
            clientInfo: { name: 'raw', version: '1' },
          },
        }),
      });
      const session = init.headers.get('mcp-session-id') as string;
      await init.text();
      const inSession = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      const call = await fetch(url, {
        method: 'POST',
        headers: { ...headers, ...inSession },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'ask', arguments: {} },
        }),
      });
      const reader = call.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      let text = '';
      while (!text.includes('elicitation/create')) {
        text += new TextDecoder().decode((await reader.read()).value);
      }
      await reader.cancel(); // the stream drops
      const primingId = /^id: (\S+)/.exec(text)?.[1] as string;
      // Kept in Redis, under the session's own streams (its initialize's and its call's).
      const keys = (await client.sendCommand(['KEYS', 'served:events:*'])) as string[];
      expect(keys.length).toBeGreaterThanOrEqual(1);
      for (const key of keys) expect(key.startsWith(`served:events:${session}/`)).toBe(true);
      const resumed = await fetch(url, {
        headers: { accept: 'text/event-stream', ...inSession, 'last-event-id': primingId },
      });
      expect(resumed.status).toBe(200);
      const replay = resumed.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      expect(new TextDecoder().decode((await replay.read()).value)).toContain('Where to?');
      await replay.cancel();
    } finally {
      await running.close({ graceMs: 0 });
    }
  });

  test('Redis down: every method rejects with a RedisStoreError', async () => {
    const store = createRedisEventStore(await redis.client(), { prefix: 'down:' });
    const id = await store.storeEvent('stream', notification(1));
    await redis.stop();
    try {
      await expect(store.storeEvent('stream', notification(2))).rejects.toThrow(RedisStoreError);
      await expect(store.getStreamIdForEventId(id)).rejects.toThrow(RedisStoreError);
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
  test('options and stream ids', async () => {
    expect(() => createRedisEventStore(client, { ttlMs: 0 })).toThrow(
      'createRedisEventStore: ttlMs must be a positive integer (got 0)',
    );
    expect(() => createRedisEventStore(client, { maxEventsPerStream: 1.5 })).toThrow(RangeError);
    await expect(
      createRedisEventStore(client).storeEvent('', {} as JSONRPCMessage),
    ).rejects.toThrow(TypeError);
  });
});
