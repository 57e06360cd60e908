/**
 * One replica of a deploy server, as its own process: tasks in a Redis every replica shares
 * (`createRedisTaskStore`, with a subscriber for change notices), a short lease so a replica
 * that dies is noticed within a second, and HTTP on 127.0.0.1. Prints its URL on stdout.
 *
 * Env: REDIS_PORT, REPLICA (its name, also its replica id).
 */
import { createClient } from 'redis';
import * as z from 'zod';

import { ParleyServer, elicitRequest } from '@parley/server';

import { createRedisTaskStore } from '../../src/index.ts';

const name = process.env.REPLICA ?? 'replica';
const client = createClient({
  url: `redis://127.0.0.1:${process.env.REDIS_PORT}`,
  disableOfflineQueue: true,
  socket: { reconnectStrategy: () => 50 },
});
client.on('error', () => {});
const subscriber = client.duplicate();
subscriber.on('error', () => {});
await Promise.all([client.connect(), subscriber.connect()]);

const approve = elicitRequest(
  'Deploy to production?',
  z.object({ approve: z.boolean().meta({ title: 'Approve' }) }),
);
const region = elicitRequest(
  'Which region?',
  z.object({ region: z.enum(['eu-west', 'us-east']).meta({ title: 'Region' }) }),
);

const server = new ParleyServer({
  name: 'Deploy Server',
  tasks: {
    store: createRedisTaskStore(client, { subscriber }),
    replicaId: name,
    leaseMs: 900,
  },
  onWarning: () => {},
  onError: () => {},
});
server.tool('deploy', { task: { support: 'required', pollIntervalMs: 50 } }, async (_a, ctx) => {
  const go = await ctx.ask('approve', approve);
  if (go.action !== 'accept' || !go.data.approve) return `Not deployed (ran on ${name})`;
  const where = await ctx.ask('region', region);
  return where.action === 'accept'
    ? `Deployed to ${where.data.region} (ran on ${name})`
    : `Not deployed (ran on ${name})`;
});
server.tool('rollout', { task: { support: 'required', pollIntervalMs: 50 } }, async (_a, ctx) => {
  // Long work: the replica is killed while it runs.
  await ctx.reportProgress(1, 10, `Rolling out on ${name}`);
  await new Promise((resolve) => setTimeout(resolve, 600_000));
  return 'rolled out';
});

const running = await server.run({ transport: 'http', port: 0 });
process.stdout.write(`${running.url}\n`);
