import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

import { createRequestStateSealer, RequestStateError } from '@parley/state-sealing';

import { RedisStoreError, createRedisReplayStore } from '../src/index.ts';
import { startRedis, type RedisProcess } from './helpers/redisServer.ts';

const binary = inject('redisServer');
const KEY = 'r'.repeat(32);
const BINDING = { method: 'tools/call', target: 'book', arguments: {} };

describe.skipIf(binary === null)('the Redis replay store, for the sealer’s own single use', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis(binary!);
  });
  afterAll(() => redis?.dispose());

  async function replica() {
    return createRequestStateSealer({
      audience: 'Booking Server',
      keys: [KEY],
      replayStore: createRedisReplayStore(await redis.client(), { prefix: 'sealer:' }),
    });
  }

  test('a token opens once across two sealers; the key expires with the token', async () => {
    const [a, b] = [await replica(), await replica()];
    const token = await a.seal('state', BINDING);
    const opened = await Promise.allSettled([a.open(token, BINDING), b.open(token, BINDING)]);
    expect(opened.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = opened.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(RequestStateError);
    expect((refused.reason as RequestStateError).reason).toBe('replayed');

    const client = await redis.client();
    const keys = (await client.sendCommand(['KEYS', 'sealer:claim:*'])) as string[];
    expect(keys).toHaveLength(1);
    const ttl = Number(await client.sendCommand(['PTTL', keys[0]!]));
    // ttlSeconds 600 + the sealer's skew (30 s) + this store's margin (30 s).
    expect(ttl).toBeGreaterThan(655_000);
    expect(ttl).toBeLessThanOrEqual(660_000);
  });

  test('Redis down: open rejects with a RedisStoreError, and the token was not judged', async () => {
    const client = await redis.client();
    const s = createRequestStateSealer({
      audience: 'Booking Server',
      keys: [KEY],
      replayStore: createRedisReplayStore(client, { prefix: 'down:' }),
    });
    const token = await s.seal('state', BINDING);
    await redis.stop();
    try {
      await expect(s.open(token, BINDING)).rejects.toThrow(RedisStoreError);
    } finally {
      await redis.start();
    }
    for (let i = 0; i < 100 && !client.isReady; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await s.open(token, BINDING)).toBe('state');
    await expect(s.open(token, BINDING)).rejects.toThrow(RequestStateError);
  });
});
