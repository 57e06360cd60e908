import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import type { RunningServer } from '@parley/server';

import { createBookingServer } from '../../../apps/booking/src/bookingServer.ts';
import type { Booking } from '../../../apps/booking/src/bookingStore.ts';
import { connectRedis } from '../../../apps/booking/src/redis.ts';
import { startRedisServer, type RedisServer } from '../../../scripts/redisServer.ts';
import { bookFlight, replyText } from '../bookingRound.ts';
import { redisServerFor } from './redisServer.ts';

/**
 * The booking app's Redis store (REDIS_URL), on a real redis-server: ids from one counter, so
 * stores on two connections (two replicas) never hand out the same one; bookings survive a
 * restart of Redis; and while Redis is down a booking fails, and the tool says so instead of
 * "Booked".
 */

const binary = redisServerFor('the booking Redis store test');
const trip = (passenger: string) => ({ destination: 'Nuuk', date: '2026-11-11', passenger });
const ids = (bookings: Booking[]) => bookings.map((booking) => booking.id);

describe.skipIf(binary === undefined)('the Redis booking store', () => {
  let redis: RedisServer;
  const connections: Awaited<ReturnType<typeof connectRedis>>[] = [];
  let replicaA: Awaited<ReturnType<typeof connectRedis>>;
  let replicaB: Awaited<ReturnType<typeof connectRedis>>;

  beforeAll(async () => {
    redis = await startRedisServer(binary!);
    // Reconnection attempts while Redis is stopped are expected here.
    replicaA = await connectRedis(redis.url, () => {});
    replicaB = await connectRedis(redis.url, () => {});
    connections.push(replicaA, replicaB);
  });
  afterAll(async () => {
    for (const connection of connections) await connection.close().catch(() => {});
    await redis?.dispose();
  });

  /** Wait until `connection` is back after a restart of Redis. */
  async function reconnected(connection: typeof replicaA): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (
        await connection.bookings.list().then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the client did not reconnect');
  }

  test('add, get, list and remove, seen alike from a second connection', async () => {
    const a = replicaA.bookings;
    const b = replicaB.bookings;
    const ada = await a.add(trip('Ada'));
    const grace = await b.add(trip('Grace'));
    expect([ada.id, grace.id]).toEqual(['BK-0001', 'BK-0002']);
    expect(await b.get('BK-0001')).toEqual(ada);
    expect(await a.list()).toEqual([ada, grace]);
    // Two replicas cancelling one booking at once: one of them removed it.
    const removals = await Promise.all([a.remove('BK-0002'), b.remove('BK-0002')]);
    expect(removals.filter((removed) => removed !== undefined)).toEqual([grace]);
    expect(ids(await b.list())).toEqual(['BK-0001']);
    expect(await a.get('BK-0002')).toBeUndefined();
  });

  test('200 adds at once on two connections: 200 distinct ids, all listed', async () => {
    const before = (await replicaA.bookings.list()).length;
    const added = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 === 0 ? replicaA : replicaB).bookings.add(trip(`P${i}`)),
      ),
    );
    expect(new Set(ids(added)).size).toBe(200);
    const listed = await replicaB.bookings.list();
    expect(listed).toHaveLength(before + 200);
    expect(ids(listed)).toEqual(expect.arrayContaining(ids(added)));
  });

  test('while Redis is down a booking fails and the tool says "Not booked"; after, ids go on', async () => {
    const reported: unknown[] = [];
    const server = createBookingServer({
      store: replicaA.bookings,
      keys: ['redis-store-test-key-000000000000000'],
      log: () => {},
      serverOptions: { onError: (error) => reported.push(error) },
    });
    const running: RunningServer = await server.run({ transport: 'http', port: 0 });
    try {
      const kept = ids(await replicaA.bookings.list());
      const last = Math.max(...kept.map((id) => Number(id.slice(3))));

      await redis.stop();
      await expect(replicaA.bookings.add(trip('Lost'))).rejects.toThrow(
        /^booking store: Redis (is not connected|INCR failed)/,
      );
      await expect(replicaA.bookings.list()).rejects.toThrow(/^booking store: Redis/);
      const refused = await bookFlight([running.url!], trip('Edsger'));
      expect(refused.result).toMatchObject({ isError: true });
      expect(replyText(refused)).toMatch(/^Not booked: booking store: Redis/);
      expect(reported).toEqual([expect.objectContaining({ message: replyText(refused) })]);

      await redis.start();
      await reconnected(replicaA);
      // What Redis acknowledged before it stopped is all there; no id is given twice.
      expect(ids(await replicaA.bookings.list())).toEqual(kept);
      const booked = await bookFlight([running.url!], trip('Edsger'));
      expect(replyText(booked)).toBe(
        `Booked BK-${String(last + 1).padStart(4, '0')}: Edsger to Nuuk on 2026-11-11`,
      );
    } finally {
      await running.close();
    }
  });
});
