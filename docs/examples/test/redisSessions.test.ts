import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';
import { generateKey } from '@parley/state-sealing';

import {
  startRedisServer,
  type RedisServer,
} from '../../../scripts/redisServer.ts';
import { runReplica } from '../deployment/redisSessions.ts';
import { fares } from '../elicitation/ask.ts';
import { redisServerBinary, textOf } from './support.ts';

const binary = redisServerBinary();

describe.skipIf(binary === undefined)(
  'handshake-era sessions across replicas, through Redis',
  () => {
    let redis: RedisServer;
    const replicas: Awaited<ReturnType<typeof runReplica>>[] = [];

    beforeAll(async () => {
      redis = await startRedisServer(binary!);
      const keys = [generateKey()];
      for (let i = 0; i < 2; i++)
        replicas.push(await runReplica(redis.url, keys));
    });
    afterAll(async () => {
      await Promise.all(replicas.map((replica) => replica.close()));
      await redis?.dispose();
    });

    test('the replica a person is answering restarts: the flow goes on on the other, nothing asked twice', async () => {
      const [a, b] = replicas as [
        (typeof replicas)[0],
        (typeof replicas)[0],
      ];
      let to = a.running;
      const asked: string[] = [];
      let reachedDate: () => void = () => {};
      const atDate = new Promise<void>(
        (resolve) => (reachedDate = resolve),
      );
      let answer: () => void = () => {};
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const lookups = fares.lookups;
      await using client = new Client(a.running.url as string, {
        mode: 'handshake',
        // The balancer: every request to the replica of the moment.
        fetch: (input, init) => {
          const url = new URL(String(input));
          url.host = new URL(to.url as string).host;
          return fetch(url, init);
        },
        elicitationHandler: async (message, responseType) => {
          asked.push(message);
          if (message.includes('Where'))
            return responseType({ destination: 'Paris' });
          reachedDate();
          await answered; // the person takes their time
          return responseType({ date: '2026-08-01' });
        },
      });
      await client.connect();
      const call = client.callTool('book_flight');
      await atDate;
      to = b.running; // the balancer takes A out; A drains
      await a.running.close({ graceMs: 5_000 });
      answer();
      expect(textOf(await call)).toBe(
        'Booked Paris on 2026-08-01 for €150',
      );
      expect(asked).toEqual([
        'Where would you like to fly?',
        'When would you like to fly to Paris?',
      ]);
      expect(fares.lookups - lookups).toBe(1);
    });
  },
);
