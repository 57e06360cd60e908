import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

import { RedisStoreError, createRedisSingleUseStore } from '../src/index.ts';
import { startRedis, type RedisProcess, type TestClient } from './helpers/redisServer.ts';

const binary = inject('redisServer');

function store(client: TestClient, prefix = 'test:') {
  return createRedisSingleUseStore(client, { prefix, clockSkewMs: 0 });
}

describe.skipIf(binary === null)('the Redis single-use store, on a real redis-server', () => {
  let redis: RedisProcess;
  let client: TestClient;
  let n = 0;
  const token = () => `token-${++n}`;
  const live = () => ({ leaseMs: 10_000, expiresAt: Date.now() + 60_000 });

  beforeAll(async () => {
    redis = await startRedis(binary!);
    client = await redis.client();
  });
  afterAll(() => redis?.dispose());

  test('started → running → finished (same outcome) → spent after the window', async () => {
    const s = store(client);
    const id = token();
    expect(await s.begin(id, live())).toEqual({ status: 'started' });
    expect(await s.begin(id, live())).toEqual({ status: 'running' });
    await s.finish(id, '{"ok":1}', { replayWindowMs: 150, expiresAt: Date.now() + 60_000 });
    expect(await s.begin(id, live())).toEqual({ status: 'finished', outcome: '{"ok":1}' });
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await s.begin(id, live())).toEqual({ status: 'spent' });
  });

  test('a released round may start again; a dead one once its lease is over', async () => {
    const s = store(client);
    const released = token();
    await s.begin(released, live());
    await s.release(released);
    expect(await s.begin(released, live())).toEqual({ status: 'started' });

    const dead = token();
    const expiresAt = Date.now() + 60_000;
    expect(await s.begin(dead, { leaseMs: 100, expiresAt })).toEqual({ status: 'started' });
    expect(await s.begin(dead, { leaseMs: 100, expiresAt })).toEqual({ status: 'running' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await s.begin(dead, { leaseMs: 100, expiresAt })).toEqual({ status: 'started' });
  });

  test('a release frees only its own run, never a finished token', async () => {
    const a = store(client);
    const b = store(client);
    const id = token();
    const expiresAt = Date.now() + 60_000;
    await a.begin(id, { leaseMs: 50, expiresAt });
    await new Promise((resolve) => setTimeout(resolve, 80));
    // A's lease ran out: the token runs on B now, and A's late release must not free B's run.
    expect(await b.begin(id, live())).toEqual({ status: 'started' });
    await a.release(id);
    expect(await b.begin(id, live())).toEqual({ status: 'running' });
    await b.finish(id, '"done"', { replayWindowMs: 10_000, expiresAt });
    await b.release(id);
    expect(await a.begin(id, live())).toEqual({ status: 'finished', outcome: '"done"' });
  });

  test('one start among many simultaneous uses on two connections', async () => {
    const other = await redis.client();
    const stores = [store(client), store(other)];
    const id = token();
    const found = await Promise.all(
      Array.from({ length: 40 }, (_, i) => stores[i % 2]!.begin(id, live())),
    );
    expect(found.filter((f) => f.status === 'started')).toHaveLength(1);
    expect(found.filter((f) => f.status === 'running')).toHaveLength(39);
  });

  test('keys carry the prefix and expire with the token', async () => {
    const s = store(client, 'booking:');
    const id = token();
    const expiresAt = Date.now() + 120_000;
    await s.begin(id, { leaseMs: 1_000, expiresAt });
    expect(Number(await client.sendCommand(['PEXPIRETIME', `booking:use:{${id}}`]))).toBe(
      expiresAt,
    );
    await s.finish(id, '"x"', { replayWindowMs: 5_000, expiresAt });
    expect(Number(await client.sendCommand(['PEXPIRETIME', `booking:use:{${id}}`]))).toBe(
      expiresAt,
    );
    const outcomeTtl = Number(await client.sendCommand(['PTTL', `booking:outcome:{${id}}`]));
    expect(outcomeTtl).toBeGreaterThan(4_000);
    expect(outcomeTtl).toBeLessThanOrEqual(5_000);
    // Another prefix is another store.
    expect(await store(client, 'other:').begin(id, live())).toEqual({ status: 'started' });
  });

  test('the clock-skew margin extends the record past the token’s expiry', async () => {
    const s = createRedisSingleUseStore(client, { prefix: 'skew:', clockSkewMs: 30_000 });
    const id = token();
    const expiresAt = Date.now() + 60_000;
    await s.begin(id, { leaseMs: 1_000, expiresAt });
    expect(Number(await client.sendCommand(['PEXPIRETIME', `skew:use:{${id}}`]))).toBe(
      expiresAt + 30_000,
    );
  });

  test('a client that is not connected fails at once with a RedisStoreError', async () => {
    const closed = await redis.client();
    closed.destroy();
    const s = store(closed);
    const error = await s.begin(token(), live()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedisStoreError);
    expect((error as RedisStoreError).code).toBe('store_unavailable');
    expect(String(error)).toContain('Redis is not connected');
  });
});

describe('the Redis single-use store refuses bad arguments', () => {
  const client = { isReady: true, sendCommand: async () => ['started'] };

  test('options', () => {
    expect(() => createRedisSingleUseStore({} as never)).toThrow(
      /^createRedisSingleUseStore: client must be a Redis client/,
    );
    expect(() => createRedisSingleUseStore(client, { prefix: 'has space' })).toThrow(
      /prefix must be at most 64 printable ASCII characters/,
    );
    expect(() => createRedisSingleUseStore(client, { prefix: '{x}' })).toThrow(/braces/);
    expect(() => createRedisSingleUseStore(client, { commandTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => createRedisSingleUseStore(client, { clockSkewMs: -1 })).toThrow(RangeError);
  });

  test('calls', async () => {
    const s = createRedisSingleUseStore(client);
    await expect(s.begin('', { leaseMs: 1, expiresAt: 1 })).rejects.toThrow(
      'createRedisSingleUseStore: tokenId must be a non-empty string',
    );
    await expect(s.begin('t', { leaseMs: Number.NaN, expiresAt: 1 })).rejects.toThrow(
      /leaseMs must be a finite number/,
    );
  });

  test('a command that never answers fails after commandTimeoutMs', async () => {
    const silent = { isReady: true, sendCommand: () => new Promise<never>(() => {}) };
    const s = createRedisSingleUseStore(silent, { commandTimeoutMs: 20 });
    await expect(s.begin('t', { leaseMs: 1, expiresAt: Date.now() + 1_000 })).rejects.toThrow(
      'createRedisSingleUseStore: Redis did not answer within 20 ms; a script failed',
    );
  });
});
