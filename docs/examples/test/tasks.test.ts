/** The tasks page: a tool that runs as a task and asks, its options, the client, and replicas. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { Client } from '@parley/client';

import {
  startRedisServer,
  type RedisServer,
} from '../../../scripts/redisServer.ts';
import { roundRobin } from '../deployment/roundRobin.ts';
import { deploy } from '../tasks/client.ts';
import { createServer } from '../tasks/deploy.ts';
import { createReplica } from '../tasks/replicas.ts';
import { redisServerBinary, textOf } from './support.ts';

const approveEuWest = (message: string) =>
  message.startsWith('Deploy') ? { approve: true } : { region: 'eu-west' };

describe.each(['modern', 'handshake'] as const)(
  'the deploy task, %s era',
  (mode) => {
    test('callTool returns the result of the task, which asked twice', async () => {
      const asked: string[] = [];
      const { text, statuses } = await deploy(
        createServer(),
        mode,
        (message) => {
          asked.push(message);
          return approveEuWest(message);
        },
      );
      expect(text).toBe('Build 1042 deployed, eu-west first.');
      expect(asked).toEqual([
        'Deploy build 1042 to production?',
        'Which region first?',
      ]);
      expect(statuses.at(-1)).toBe('completed');
    });
  },
);

test('a task-only tool runs for a client that takes tasks, and refuses one that does not', async () => {
  const server = createServer();
  await using client = new Client(server, { mode: 'modern' });
  await client.connect();
  expect(textOf(await client.callTool('nightly_export'))).toBe('Exported.');
  await using refusing = new Client(server, {
    mode: 'modern',
    tasks: false,
  });
  await refusing.connect();
  await expect(refusing.callTool('nightly_export')).rejects.toThrow(
    /io\.modelcontextprotocol\/tasks/,
  );
});

test('start: by-handler asks by rounds of the call, then becomes a task', async () => {
  await using client = new Client(createServer(), {
    mode: 'modern',
    elicitationHandler: (_message, responseType) =>
      responseType(true as never),
  });
  await client.connect();
  let became = false;
  const result = await client.callTool(
    'migrate',
    {},
    { onTask: () => (became = true) },
  );
  expect(textOf(result)).toBe('Orders table migrated.');
  expect(became).toBe(true);
});

const binary = redisServerBinary();

describe.skipIf(binary === undefined)(
  'tasks across replicas, through Redis',
  () => {
    let redis: RedisServer;
    const replicas: Awaited<ReturnType<typeof createReplica>>[] = [];
    beforeAll(async () => {
      redis = await startRedisServer(binary!);
      for (const name of ['a', 'b'])
        replicas.push(await createReplica(redis.url, name));
    });
    afterAll(async () => {
      await Promise.all(replicas.map((replica) => replica.close()));
      await redis?.dispose();
    });

    test('a task started on one replica is polled and answered on both', async () => {
      const balancer = roundRobin(replicas.map((replica) => replica.mcp));
      const { text } = await deploy(balancer, 'modern', approveEuWest);
      expect(text).toBe('Build 1042 deployed, eu-west first.');
      expect(new Set(balancer.served)).toEqual(new Set([0, 1]));
    });
  },
);
