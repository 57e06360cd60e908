import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';

import { createRedisSingleUseStore } from '../src/index.ts';
import { startRedis, type RedisProcess } from './helpers/redisServer.ts';
import { callBook, createReplica, outcomeOf, type Replica } from './helpers/replica.ts';

const binary = inject('redisServer');

/**
 * Two replicas (two ParleyServer instances, each with its own Redis connection, one key ring)
 * and one Redis: a token spent on one is spent on both.
 */
describe.skipIf(binary === null)('single use across two replicas, through Redis', () => {
  let redis: RedisProcess;
  let a: Replica;
  let b: Replica;

  beforeAll(async () => {
    redis = await startRedis(binary!);
    a = createReplica('A', createRedisSingleUseStore(await redis.client()));
    b = createReplica('B', createRedisSingleUseStore(await redis.client()));
  });
  afterAll(() => redis?.dispose());

  async function askedState(replica: Replica): Promise<string> {
    const asked = await callBook(replica);
    expect(asked.result?.resultType).toBe('input_required');
    return asked.result!.requestState!;
  }

  test('a state spent on A is refused on B after the replay window, and runs nowhere twice', async () => {
    const state = await askedState(a);
    const onA = await callBook(a, { seats: 2, requestState: state });
    expect(outcomeOf(onA)).toBe('Booked 2 seats (booking 1 on A)');
    // A lost response, retried through the load balancer on B: the same booking, not a second.
    const retryOnB = await callBook(b, { seats: 2, requestState: state });
    expect(retryOnB.result).toEqual(onA.result);
    expect(a.bookings.length + b.bookings.length).toBe(1);
  });

  test('after the replay window, the replay on B is refused, and books nothing', async () => {
    const short = { replayWindowMs: 200 };
    const a2 = createReplica('A2', createRedisSingleUseStore(await redis.client()), short);
    const b2 = createReplica('B2', createRedisSingleUseStore(await redis.client()), short);
    const state = await askedState(a2);
    expect(outcomeOf(await callBook(a2, { seats: 3, requestState: state }))).toBe(
      'Booked 3 seats (booking 1 on A2)',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const replay = await callBook(b2, { seats: 3, requestState: state });
    expect(replay.error).toEqual({
      code: -32602,
      message: 'Invalid or expired requestState',
      data: { reason: 'invalid_request_state' },
    });
    expect(String(b2.errors.at(-1))).toContain('replayed');
    expect(b2.bookings).toEqual([]);
    expect(a2.bookings).toEqual([3]);
  });

  test('a state replayed on a replica without the shared store is accepted there: why one store', async () => {
    // The failure mode this package exists for, shown once: B keeps its own memory.
    const alone = createReplica(
      'B-alone',
      createRedisSingleUseStore(await redis.client(), { prefix: 'elsewhere:' }),
    );
    const state = await askedState(a);
    await callBook(a, { seats: 5, requestState: state });
    expect(outcomeOf(await callBook(alone, { seats: 5, requestState: state }))).toBe(
      'Booked 5 seats (booking 1 on B-alone)',
    );
  });

  test('the same state sent to A and B at the same moment books once; both get that booking', async () => {
    const state = await askedState(b);
    const [onA, onB] = await Promise.all([
      callBook(a, { seats: 4, requestState: state }),
      callBook(b, { seats: 4, requestState: state }),
    ]);
    expect(onA.result).toEqual(onB.result);
    expect(outcomeOf(onA)).toMatch(/^Booked 4 seats/);
    expect([...a.bookings, ...b.bookings].filter((seats) => seats === 4)).toHaveLength(1);
  });
});
