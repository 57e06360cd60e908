import {
  createRedisEventStore,
  createRedisSessionStore,
  createRedisSingleUseStore,
} from '@parley/redis';
import { createClient } from 'redis';

import { createRedisBookingStore } from './redisBookingStore.ts';

/**
 * The stores replicas share through one Redis: the bookings, single use of `requestState` (a
 * token spent on one replica is spent on all), the event store of resumable handshake-era
 * streams, and the session store that lets a handshake-era call waiting on a person move to
 * another replica when its own restarts (with a subscriber connection of its own).
 */
export async function connectRedis(
  url: string,
  log = (line: string) => void process.stderr.write(`${line}\n`),
) {
  const client = createClient({
    url,
    // A command sent while Redis is unreachable fails at once (the stores fail closed).
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
  });
  client.on('error', (error: unknown) => log(`booking: redis: ${String(error)}`));
  await client.connect();
  const subscriber = client.duplicate();
  subscriber.on('error', (error: unknown) => log(`booking: redis subscriber: ${String(error)}`));
  await subscriber.connect();
  return {
    bookings: createRedisBookingStore(client, { prefix: 'booking:' }),
    singleUse: createRedisSingleUseStore(client, { prefix: 'booking:' }),
    eventStore: createRedisEventStore(client, { prefix: 'booking:' }),
    sessionStore: createRedisSessionStore(client, { prefix: 'booking:', subscriber }),
    close: async () => {
      await subscriber.close();
      await client.close();
    },
  };
}
