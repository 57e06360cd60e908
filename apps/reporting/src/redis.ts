import { createRedisTaskStore } from '@parley/redis';
import type { TaskStore } from '@parley/server';
import { createClient } from 'redis';

/**
 * The task store replicas share through one Redis: a task one replica runs is polled, answered
 * and cancelled on any of them, and one whose replica died ends `failed`. A second connection
 * hears of changes at once (answers, for the replica whose handler waits for them; task
 * states, for clients listening on another replica).
 */
export async function connectRedisTasks(url: string): Promise<TaskStore> {
  const log = (error: unknown) => process.stderr.write(`reporting: redis: ${String(error)}\n`);
  const client = createClient({
    url,
    // A command sent while Redis is unreachable fails at once (the store fails closed).
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
  });
  client.on('error', log);
  const subscriber = client.duplicate();
  subscriber.on('error', log);
  await Promise.all([client.connect(), subscriber.connect()]);
  return createRedisTaskStore(client, { subscriber, prefix: 'reporting:' });
}
