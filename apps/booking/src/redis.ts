import { createRedisEventStore, createRedisSingleUseStore } from '@parley/redis';
import { createClient } from 'redis';

/**
 * The stores replicas share through one Redis: single use of `requestState` (a token spent on
 * one replica is spent on all) and the event store of resumable handshake-era streams.
 */
export async function connectRedis(url: string) {
  const client = createClient({
    url,
    // A command sent while Redis is unreachable fails at once (the stores fail closed).
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
  });
  client.on('error', (error: unknown) => {
    process.stderr.write(`booking: redis: ${String(error)}\n`);
  });
  await client.connect();
  return {
    singleUse: createRedisSingleUseStore(client, { prefix: 'booking:' }),
    eventStore: createRedisEventStore(client, { prefix: 'booking:' }),
  };
}
