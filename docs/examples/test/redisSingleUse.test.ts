import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client, type InProcessServer } from '@parley/client';
import { generateKey } from '@parley/state-sealing';
import { createClient } from 'redis';

import {
  startRedisServer,
  type RedisServer,
} from '../../../scripts/redisServer.ts';
import { roundRobin } from '../deployment/roundRobin.ts';
import { createReplica } from '../deployment/redisSingleUse.ts';
import { redisServerBinary, textOf } from './support.ts';

const binary = redisServerBinary();

describe.skipIf(binary === undefined)(
  'single use across replicas, through Redis',
  () => {
    let redis: RedisServer;
    const replicas: Awaited<ReturnType<typeof createReplica>>[] = [];

    beforeAll(async () => {
      redis = await startRedisServer(binary!);
      const keys = [generateKey()];
      for (let i = 0; i < 2; i++)
        replicas.push(await createReplica(redis.url, keys));
    });
    afterAll(async () => {
      await Promise.all(replicas.map((replica) => replica.close()));
      await redis?.dispose();
    });

    test('a flow booked across two replicas; its last round, replayed on the other, books nothing new', async () => {
      const balancer = roundRobin(replicas.map((replica) => replica.mcp));
      let last: Request | undefined;
      const recording: InProcessServer = {
        connect: balancer.connect,
        fetch(request) {
          last = request.clone();
          return balancer.fetch(request);
        },
      };
      await using client = new Client(recording, {
        mode: 'modern',
        elicitationHandler: (message, responseType) =>
          message.includes('Where')
            ? responseType({ destination: 'Paris' })
            : responseType({ date: '2026-08-01' }),
      });
      await client.connect();
      expect(textOf(await client.callTool('book_flight'))).toBe(
        'Booked a flight to Paris on 2026-08-01',
      );
      expect(new Set(balancer.served.slice(-3))).toEqual(new Set([0, 1]));

      // The same final round again, on the replica that did not serve it: the same answer, from
      // the outcome Redis kept, not a second booking.
      const other = replicas[(balancer.served.at(-1)! + 1) % 2]!.mcp;
      const replay = (await (await other.fetch(last!)).json()) as {
        result?: { content: { text: string }[] };
      };
      expect(replay.result?.content[0]?.text).toBe(
        'Booked a flight to Paris on 2026-08-01',
      );

      const inspect = createClient({ url: redis.url });
      await inspect.connect();
      try {
        const keys = (await inspect.sendCommand([
          'KEYS',
          'booking:use:*',
        ])) as string[];
        expect(keys.length).toBeGreaterThanOrEqual(2); // rounds 2 and 3 each spent a state
      } finally {
        await inspect.close();
      }
    });
  },
);
