import { createRedisTaskStore } from '@parley/redis';
import type { ParleyServer } from '@parley/server';
import { createClient } from 'redis';

import { createServer } from './deploy.ts';

/** One replica: its tasks in the Redis every replica shares. */
export async function createReplica(
  redisUrl: string,
  name: string,
): Promise<{ mcp: ParleyServer; close(): Promise<void> }> {
  // #region redis
  const redis = createClient({ url: redisUrl, disableOfflineQueue: true });
  redis.on('error', (error: Error) =>
    console.error(`redis: ${error.message}`),
  );
  // A second connection hears of answers to this replica's tasks at once.
  const subscriber = redis.duplicate();
  subscriber.on('error', (error: Error) =>
    console.error(`redis: ${error.message}`),
  );
  await Promise.all([redis.connect(), subscriber.connect()]);

  const mcp = createServer({
    store: createRedisTaskStore(redis, { subscriber, prefix: 'deploy:' }),
    replicaId: name, // named in the failure of a task whose replica died
  });
  // #endregion redis
  return {
    mcp,
    close: async () => {
      await subscriber.close();
      await redis.close();
    },
  };
}
