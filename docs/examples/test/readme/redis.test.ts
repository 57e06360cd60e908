/**
 * The example of packages/redis/README.md that the guides do not run already: the SSE event
 * store, against a real redis-server (skipped without one, required in CI).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';
import type { RunningServer } from '@parley/server';
import { createClient } from 'redis';

import {
  startRedisServer,
  type RedisServer,
} from '../../../../scripts/redisServer.ts';
import { createServer } from '../../readme/redis/eventStore.ts';
import { redisServerBinary, textOf } from '../support.ts';

const binary = redisServerBinary();

describe.skipIf(binary === undefined)('readme/redis/eventStore.ts', () => {
  let redis: RedisServer;
  let server: Awaited<ReturnType<typeof createServer>>;
  let running: RunningServer;

  beforeAll(async () => {
    redis = await startRedisServer(binary!);
    server = await createServer(redis.url);
    running = await server.mcp.run({ transport: 'http', port: 0 });
  });
  afterAll(async () => {
    await running?.close();
    await server?.close();
    await redis?.dispose();
  });

  test('a handshake-era call that asks keeps its stream in Redis', async () => {
    await using client = new Client(String(running.url), {
      mode: 'handshake',
      elicitationHandler: () => 'Ada',
    });
    await client.connect();
    expect(textOf(await client.callTool('greet'))).toBe('Hello, Ada!');

    const inspect = createClient({ url: redis.url });
    await inspect.connect();
    try {
      const keys = (await inspect.sendCommand([
        'KEYS',
        'booking:events:*',
      ])) as string[];
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await inspect.close();
    }
  });
});
