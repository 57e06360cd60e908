/**
 * The Redis example of packages/state-sealing/README.md: a sealer whose replay store is Redis
 * opens each token once, against a real redis-server (skipped without one, required in CI).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { RequestStateError, generateKey } from '@parley/state-sealing';

import {
  findRedisServer,
  startRedisServer,
  type RedisServer,
} from '../../../../scripts/redisServer.ts';
import { createSealer } from '../../readme/state-sealing/redisReplayStore.ts';

const binary = findRedisServer();
if (binary === undefined && process.env.CI === 'true') {
  throw new Error(
    'redis-server is required in CI (apt-get install -y redis-server)',
  );
}

describe.skipIf(binary === undefined)(
  'readme/state-sealing/redisReplayStore.ts',
  () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedisServer(binary!);
    });
    afterAll(async () => {
      await redis?.dispose();
    });

    test('two replicas: a token opens once, on either', async () => {
      const env = {
        REDIS_URL: redis.url,
        REQUEST_STATE_KEY: generateKey(),
      };
      const [one, two] = await Promise.all([
        createSealer(env),
        createSealer(env),
      ]);
      try {
        const binding = { method: 'tools/call', target: 'book_trip' };
        const token = await one.sealer.seal('{"step":"date"}', binding);
        expect(await two.sealer.open(token, binding)).toBe(
          '{"step":"date"}',
        );
        const again = await one.sealer.open(token, binding).catch((e) => e);
        expect(again).toBeInstanceOf(RequestStateError);
        expect((again as RequestStateError).reason).toBe('replayed');
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  },
);
