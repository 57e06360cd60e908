import { createRedisEventStore } from '@parley/redis';
import { ParleyServer, elicitRequest } from '@parley/server';
import { createClient } from 'redis';

/** A server whose handshake-era streams resume from Redis, on any process that shares it. */
export async function createServer(
  redisUrl: string,
): Promise<{ mcp: ParleyServer; close(): Promise<void> }> {
  // #region eventStore
  const redis = createClient({ url: redisUrl, disableOfflineQueue: true });
  redis.on('error', (error: Error) =>
    console.error(`redis: ${error.message}`),
  );
  await redis.connect();

  const mcp = new ParleyServer({
    name: 'Booking Server',
    http: {
      eventStore: createRedisEventStore(redis, {
        prefix: 'booking:',
        ttlMs: 300_000,
      }),
    },
  });
  // #endregion eventStore

  mcp.tool('greet', async (_args, ctx) => {
    const name = await ctx.ask(
      'name',
      elicitRequest("What's your name?", String, { responseTitle: 'Name' }),
    );
    return name.action === 'accept' ? `Hello, ${name.data}!` : 'Hello!';
  });
  return { mcp, close: async () => void (await redis.close()) };
}
