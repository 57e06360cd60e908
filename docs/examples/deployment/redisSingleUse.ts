import { createRedisSingleUseStore } from '@parley/redis';
import type { ParleyServer } from '@parley/server';
import { createClient } from 'redis';

import { createServer as createBookingServer } from '../elicitation/bookFlight.ts';

/** One replica: the shared key ring, and single use through the shared Redis. */
export async function createReplica(
  redisUrl: string,
  keys: string[],
): Promise<{ mcp: ParleyServer; close(): Promise<void> }> {
  // #region redis
  // disableOfflineQueue: while Redis is unreachable, a round fails at once
  // (and the token stays unspent) instead of waiting for a reconnection.
  const redis = createClient({ url: redisUrl, disableOfflineQueue: true });
  redis.on('error', (error: Error) =>
    console.error(`redis: ${error.message}`),
  );
  await redis.connect();

  const mcp = createBookingServer({
    name: 'Booking Server', // the same on every replica
    requestStateSecurity: {
      keys, // the same ring on every replica
      singleUse: createRedisSingleUseStore(redis, { prefix: 'booking:' }),
    },
  });
  // #endregion redis
  return { mcp, close: async () => void (await redis.close()) };
}
