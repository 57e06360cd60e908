/**
 * The public API of @parley/redis. Everything exported here is public and versioned: add to it
 * deliberately, with a changeset.
 */

export { createRedisSingleUseStore } from './singleUseStore.ts';
export type { RedisSingleUseStoreOptions } from './singleUseStore.ts';
export { createRedisEventStore } from './eventStore.ts';
export type { RedisEventStoreOptions } from './eventStore.ts';
export { createRedisTaskStore } from './taskStore.ts';
export type { RedisSubscriber, RedisTaskStoreOptions } from './taskStore.ts';
export { RedisStoreError } from './redisStoreError.ts';
export type { RedisClient, RedisStoreOptions } from './redisClient.ts';
export { createRedisSessionStore } from './sessionStore.ts';
export type { RedisSessionStoreOptions } from './sessionStore.ts';
