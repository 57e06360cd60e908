import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ParleyServer, elicitRequest, type RunningServer } from '@parley/server';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import * as z from 'zod';

import { RedisStoreError, createRedisEventStore, createRedisSessionStore } from '../src/index.ts';
import { startRedis, type RedisProcess } from './helpers/redisServer.ts';

const binary = inject('redisServer');

/**
 * The session store on a real redis-server: what one connection keeps another reads, values
 * expire, a notice on one connection reaches the watchers of every other; and two replicas
 * sharing it (and the Redis event store) move a handshake-era call waiting on a person from one
 * to the other, with the person's answer posted to the replica that took it.
 */
describe.skipIf(binary === null)('the Redis session store, on a real redis-server', () => {
  let redis: RedisProcess;
  beforeAll(async () => {
    redis = await startRedis(binary!);
  });
  afterAll(() => redis?.dispose());

  async function store(prefix = 'test:') {
    const client = await redis.client();
    const subscriber = client.duplicate();
    subscriber.on('error', () => {});
    await subscriber.connect();
    return createRedisSessionStore(client, { prefix, subscriber });
  }

  test('one replica keeps, another reads; values expire; notices reach every replica that watches', async () => {
    const a = await store();
    const b = await store();
    await a.set('session:s1', '{"kept":true}', 60_000);
    expect(await b.get('session:s1')).toBe('{"kept":true}');
    await a.set('short', 'x', 50);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await b.get('short')).toBeUndefined();
    await b.delete('session:s1');
    expect(await a.get('session:s1')).toBeUndefined();

    const heard: string[] = [];
    const stop = b.watch('answer:s1/0', () => heard.push('b'));
    a.watch('answer:s1/1', () => heard.push('other key'));
    // The subscription is made on the first watch; give it a moment to be in place.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await a.notify('answer:s1/0');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual(['b']);
    stop();
    await a.notify('answer:s1/0');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual(['b']);
  });

  test('it refuses to be made without a subscriber, and fails with a RedisStoreError when Redis does', async () => {
    const client = await redis.client();
    expect(() => createRedisSessionStore(client, {} as never)).toThrow(/options\.subscriber/);
    const down = await store();
    const victim = await redis.client();
    const lonely = createRedisSessionStore(victim, { subscriber: victim.duplicate() });
    victim.destroy();
    await expect(lonely.get('x')).rejects.toBeInstanceOf(RedisStoreError);
    expect(await down.get('x')).toBeUndefined();
  });

  test('two replicas on Redis: a call waiting on a person moves when its replica drains, and nobody is asked twice', async () => {
    const where = elicitRequest('Where to?', z.object({ city: z.string() }));
    const when = elicitRequest('When?', z.object({ date: z.string() }));
    let effects = 0;
    const replicas: RunningServer[] = [];
    for (const name of ['A', 'B']) {
      const mcp = new ParleyServer({
        name: 'redis-handover',
        onWarning: () => {},
        onError: () => {},
      });
      mcp.tool('book', async (_args, ctx) => {
        const city = await ctx.ask('where', where);
        const fare = await ctx.remember('fare', () => ++effects * 100);
        const date = await ctx.ask('when', when);
        if (city.action !== 'accept' || date.action !== 'accept') return 'not booked';
        return `${name}: booked ${city.data.city} on ${date.data.date} for ${fare}`;
      });
      replicas.push(
        await mcp.run({
          transport: 'http',
          port: 0,
          sessionStore: await store('handover:'),
          eventStore: createRedisEventStore(await redis.client(), { prefix: 'handover:' }),
          sseRetryMs: 50,
        }),
      );
    }
    const [a, b] = replicas as [RunningServer, RunningServer];
    let target = a;
    const fetchVia = (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      url.host = new URL(target.url as string).host;
      return fetch(new Request(url, request));
    };
    const asked: string[] = [];
    let release: () => void = () => {};
    const person = new Promise<void>((resolve) => (release = resolve));
    let waiting: () => void = () => {};
    const reached = new Promise<void>((resolve) => (waiting = resolve));
    const client = new Client(
      { name: 'person', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      if (request.params.message === 'Where to?') {
        return { action: 'accept' as const, content: { city: 'Lisbon' } as Record<string, string> };
      }
      waiting();
      await person;
      return {
        action: 'accept' as const,
        content: { date: '2026-09-01' } as Record<string, string>,
      };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(a.url as string), {
        fetch: fetchVia as typeof fetch,
        reconnectionOptions: {
          initialReconnectionDelay: 50,
          maxReconnectionDelay: 200,
          reconnectionDelayGrowFactor: 1.5,
          maxRetries: 5,
        },
      }),
    );
    try {
      const call = client.callTool({ name: 'book', arguments: {} });
      await reached;
      target = b;
      await a.close({ graceMs: 5_000 });
      release();
      const result = await call;
      expect(result.content).toEqual([
        { type: 'text', text: 'B: booked Lisbon on 2026-09-01 for 100' },
      ]);
      expect(asked).toEqual(['Where to?', 'When?']);
      expect(effects).toBe(1);
    } finally {
      await client.close();
      await Promise.allSettled(replicas.map((replica) => replica.close({ graceMs: 0 })));
    }
  });
});
