/**
 * The Redis the @parley/redis suites run against: a real `redis-server` (see
 * scripts/redisServer.ts), and node-redis clients that fail fast while it is down.
 */
import { createClient } from 'redis';

import { startRedisServer, type RedisServer } from '../../../../scripts/redisServer.ts';

export { findRedisServer } from '../../../../scripts/redisServer.ts';

/** A node-redis client that fails fast while Redis is down, as the stores want it. */
function newClient(port: number) {
  const client = createClient({
    url: `redis://127.0.0.1:${port}`,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: () => 50 },
  });
  // Reconnection attempts while Redis is stopped are expected; the stores report the outage.
  client.on('error', () => {});
  return client;
}

export type TestClient = ReturnType<typeof newClient>;

export interface RedisProcess extends RedisServer {
  /** A connected client, closed with the server. */
  client(): Promise<TestClient>;
}

export async function startRedis(binary: string): Promise<RedisProcess> {
  const server = await startRedisServer(binary);
  const clients: TestClient[] = [];
  return {
    ...server,
    async client() {
      const client = newClient(server.port);
      clients.push(client);
      await client.connect();
      return client;
    },
    async dispose() {
      for (const client of clients) {
        // A client a test already destroyed (or never got connected) has nothing to close.
        if (client.isOpen) client.destroy();
      }
      await server.dispose();
    },
  };
}
