import type { EventStore, SessionStore, SingleUseStore, TaskStore } from '@parley/server';
import { createClient } from 'redis';
import { expectTypeOf, test } from 'vitest';

import {
  createRedisEventStore,
  createRedisSessionStore,
  createRedisSingleUseStore,
  createRedisTaskStore,
  type RedisClient,
  type RedisSubscriber,
} from '../src/index.ts';

test('a node-redis client is a RedisClient, with or without modules and RESP3', () => {
  expectTypeOf(createClient()).toExtend<RedisClient>();
  expectTypeOf(createClient({ RESP: 3 })).toExtend<RedisClient>();
});

test('the stores are the interfaces Parley takes', () => {
  const client = createClient();
  expectTypeOf(createRedisSingleUseStore(client)).toEqualTypeOf<SingleUseStore>();
  expectTypeOf(createRedisEventStore(client)).toEqualTypeOf<EventStore>();
  expectTypeOf(createRedisTaskStore(client)).toEqualTypeOf<TaskStore>();
  expectTypeOf(
    createRedisSessionStore(client, { subscriber: client.duplicate() }),
  ).toEqualTypeOf<SessionStore>();
});

test('a node-redis client (duplicated, in subscriber mode) is a RedisSubscriber', () => {
  expectTypeOf(createClient().duplicate()).toExtend<RedisSubscriber>();
});
