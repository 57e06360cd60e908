import {
  createRedisEventStore,
  createRedisSessionStore,
} from '@parley/redis';
import type { RunningServer } from '@parley/server';
import { createClient } from 'redis';

import { createServer as createBookingServer } from '../elicitation/ask.ts';

/**
 * One replica whose handshake-era sessions outlive it: their events and the record of their
 * calls live in the Redis every replica shares.
 */
export async function runReplica(
  redisUrl: string,
  keys: string[],
): Promise<{ running: RunningServer; close(): Promise<void> }> {
  // #region sessions
  const redis = createClient({ url: redisUrl, disableOfflineQueue: true });
  redis.on('error', (error: Error) =>
    console.error(`redis: ${error.message}`),
  );
  await redis.connect();
  // An answer posted to another replica arrives as a notice: a connection of its own.
  const notices = redis.duplicate();
  notices.on('error', (error: Error) =>
    console.error(`redis notices: ${error.message}`),
  );
  await notices.connect();

  const mcp = createBookingServer({
    name: 'Booking Server', // the same on every replica
    requestStateSecurity: { keys }, // the same ring on every replica
  });
  const running = await mcp.run({
    transport: 'http',
    port: 0, // each replica its own port, behind the balancer
    eventStore: createRedisEventStore(redis, { prefix: 'booking:' }),
    sessionStore: createRedisSessionStore(redis, {
      prefix: 'booking:',
      subscriber: notices,
    }),
  });
  // #endregion sessions
  return {
    running,
    close: async () => {
      await running.close({ graceMs: 0 });
      await notices.close();
      await redis.close();
    },
  };
}
