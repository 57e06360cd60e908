import { taskExpiresAt, type TaskRecord } from '@parley/server';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

import { RedisStoreError, createRedisTaskStore } from '../src/index.ts';
import { startRedis, type RedisProcess, type TestClient } from './helpers/redisServer.ts';

const binary = inject('redisServer');

/**
 * The task store on a real Redis, as replicas use it: each store below has connections of its
 * own (as each replica would), and what one writes the others read, atomically, with change
 * notices through pub/sub.
 */

let next = 0;

function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  next += 1;
  const now = Date.now();
  return {
    taskId: `task-${next}-${Math.random().toString(36).slice(2)}`,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    scope: {
      tool: 'deploy',
      era: 'modern',
      protocolVersion: '2026-07-28',
      clientCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    },
    lease: { owner: 'replica-a', expiresAt: now + 30_000 },
    inputRequests: {},
    answers: {},
    keysUsed: [],
    revision: 1,
    ...overrides,
  };
}

/** One step of a record, as a transition makes it. */
const step = (current: TaskRecord, changes: Partial<TaskRecord>): TaskRecord => ({
  ...current,
  ...changes,
  revision: current.revision + 1,
});

describe.skipIf(binary === null)('the Redis task store', () => {
  let redis: RedisProcess;
  const subscribers: TestClient[] = [];

  async function replicaStore(options: { now?: () => number; withSubscriber?: boolean } = {}) {
    const client = await redis.client();
    const subscriber = client.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    subscribers.push(subscriber);
    return createRedisTaskStore(client, {
      ...(options.withSubscriber === false ? {} : { subscriber }),
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
  }

  beforeAll(async () => {
    redis = await startRedis(binary!);
  });
  afterAll(async () => {
    for (const subscriber of subscribers) if (subscriber.isOpen) subscriber.destroy();
    await redis?.dispose();
  });

  test('a task created on one replica is there for every other at once', async () => {
    const [a, b] = [await replicaStore(), await replicaStore()];
    const task = record();
    await a.create(task);
    expect(await b.get(task.taskId)).toEqual(task);
    await expect(b.create(task)).rejects.toThrow(/already exists/);
    expect(await b.get('never-created')).toBeUndefined();
  });

  test('changes from several replicas at once: none is lost', async () => {
    const stores = [await replicaStore(), await replicaStore(), await replicaStore()];
    const task = record();
    await stores[0]!.create(task);
    // 30 answers delivered at the same moment through three replicas.
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        stores[i % 3]!.update(task.taskId, (current) =>
          step(current, { keysUsed: [...current.keysUsed, `k${i}`] }),
        ),
      ),
    );
    const after = (await stores[1]!.get(task.taskId))!;
    expect(after.keysUsed.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `k${i}`).sort());
    expect(after.revision).toBe(31);
  });

  test('a change that does not apply writes nothing; one that throws rejects, and writes nothing', async () => {
    const store = await replicaStore();
    const task = record();
    await store.create(task);
    expect(await store.update(task.taskId, () => undefined)).toEqual(task);
    await expect(
      store.update(task.taskId, () => {
        throw new TypeError('not an answer');
      }),
    ).rejects.toThrow('not an answer');
    expect((await store.get(task.taskId))?.revision).toBe(1);
    expect(await store.update('missing', (current) => step(current, {}))).toBeUndefined();
  });

  test('a change on one replica reaches a watcher on another; so does a deletion', async () => {
    const [a, b] = [await replicaStore(), await replicaStore()];
    const task = record();
    await a.create(task);
    const seen: (TaskRecord | undefined)[] = [];
    const stop = b.watch(task.taskId, (changed) => seen.push(changed));
    // Subscribing is asynchronous: give it a moment before the change it should hear of.
    await expect
      .poll(async () => {
        await a.update(task.taskId, (current) => step(current, { statusMessage: 'ping' }));
        return seen.length;
      })
      .toBeGreaterThan(0);
    expect(seen.at(-1)?.statusMessage).toBe('ping');
    await a.delete(task.taskId);
    await expect.poll(() => seen.at(-1)).toBeUndefined();
    stop();
    const count = seen.length;
    await a.create(record({ taskId: task.taskId }));
    await a.update(task.taskId, (current) => step(current, { statusMessage: 'after stop' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.length).toBe(count);
  });

  test('a task is gone once its ttl ran out, on every replica; Redis forgets it too', async () => {
    let skew = 0;
    const store = await replicaStore({ now: () => Date.now() + skew });
    const task = record({ ttlMs: 5_000 });
    await store.create(task);
    const pttl = (await (
      await redis.client()
    ).sendCommand(['PTTL', `parley:task:{${task.taskId}}`])) as number;
    // Its ttl from creation, plus the clock skew allowance (30 s).
    expect(pttl).toBeGreaterThan(30_000);
    expect(pttl).toBeLessThanOrEqual(taskExpiresAt(task) + 30_000 - Date.now() + 5);
    skew = 5_000;
    expect(await store.get(task.taskId)).toBeUndefined();
    const forever = record({ ttlMs: null });
    await store.create(forever);
    expect(
      await (await redis.client()).sendCommand(['PTTL', `parley:task:{${forever.taskId}}`]),
    ).toBe(-1);
  });

  test('lists one owner’s tasks, newest first, a page at a time', async () => {
    const store = await replicaStore();
    const base = Date.now();
    const mine = Array.from({ length: 5 }, (_, i) =>
      record({ createdAt: base + i, scope: { ...record().scope, sessionId: 'session-1' } }),
    );
    for (const task of mine) await store.create(task);
    await store.create(record({ scope: { ...record().scope, sessionId: 'session-2' } }));
    await store.delete(mine[2]!.taskId);
    const owner = 'session:session-1';
    const first = await store.list(owner, { limit: 2 });
    expect(first.tasks.map((t) => t.taskId)).toEqual([mine[4]!.taskId, mine[3]!.taskId]);
    const second = await store.list(owner, { limit: 2, cursor: first.nextCursor! });
    expect(second.tasks.map((t) => t.taskId)).toEqual([mine[1]!.taskId, mine[0]!.taskId]);
    expect(second.nextCursor).toBeUndefined();
    await expect(store.list(owner, { limit: 2, cursor: 'x' })).rejects.toThrow(TypeError);
    expect((await store.list('session:nobody', { limit: 10 })).tasks).toEqual([]);
  });

  test('without Redis, every method fails with a RedisStoreError', async () => {
    const client = await redis.client();
    const store = createRedisTaskStore(client);
    const task = record();
    await store.create(task);
    client.destroy();
    await expect(store.get(task.taskId)).rejects.toBeInstanceOf(RedisStoreError);
    await expect(store.update(task.taskId, (c) => step(c, {}))).rejects.toBeInstanceOf(
      RedisStoreError,
    );
    await expect(store.create(record())).rejects.toBeInstanceOf(RedisStoreError);
  });

  test('bad options are refused where the store is made', async () => {
    const client = await redis.client();
    expect(() => createRedisTaskStore(client, { clockSkewMs: -1 })).toThrow(RangeError);
    expect(() => createRedisTaskStore(client, { subscriber: {} as never })).toThrow(TypeError);
  });
});
