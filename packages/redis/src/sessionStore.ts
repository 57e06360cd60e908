import { checkOptionKeys, optionKeys } from '@parley/core';
import type { SessionStore } from '@parley/server';

import { connectStore, type RedisClient, type RedisStoreOptions } from './redisClient.ts';
import type { RedisSubscriber } from './taskStore.ts';

/** Options of {@link createRedisSessionStore}. */
export interface RedisSessionStoreOptions extends RedisStoreOptions {
  /**
   * Where change notices arrive: a subscriber connection of its own (`client.duplicate()`,
   * connected). Required: a replica waiting for a person's answer hears of an answer posted to
   * another replica through it.
   */
  subscriber: RedisSubscriber;
}

const API = 'createRedisSessionStore';

const OPTION_KEYS = optionKeys<RedisSessionStoreOptions>()([
  'prefix',
  'commandTimeoutMs',
  'subscriber',
]);

/**
 * A session store on Redis (`http.sessionStore` of a `ParleyServer`): handshake-era sessions and
 * the records of their calls, shared by every replica, so a call waiting on a person goes on on
 * another replica when its own drains or dies. Values are plain keys with an expiry
 * (`<prefix>session:…`); change notices go out on one channel, `<prefix>session-changed`, that
 * every replica listens to with one subscription (notices come at the pace of people's answers).
 * When Redis fails, every method but `watch` rejects with a `RedisStoreError`.
 */
export function createRedisSessionStore(
  client: RedisClient,
  options: RedisSessionStoreOptions,
): SessionStore {
  checkOptionKeys(API, 'options', options, OPTION_KEYS);
  const redis = connectStore(API, client, options);
  const { subscriber } = options;
  if (
    typeof subscriber !== 'object' ||
    subscriber === null ||
    typeof subscriber.subscribe !== 'function' ||
    typeof subscriber.unsubscribe !== 'function'
  ) {
    throw new TypeError(
      `${API}: options.subscriber must be a subscribed Redis connection of its own (client.duplicate(), connected)`,
    );
  }
  const keyOf = (key: string) => `${redis.prefix}session:${key}`;
  const channel = `${redis.prefix}session-changed`;
  const watchers = new Map<string, Set<() => void>>();
  let subscribed: Promise<unknown> | undefined;
  const onNotice = (key: string): void => {
    for (const listener of [...(watchers.get(key) ?? [])]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own.
      }
    }
  };

  return {
    async get(key) {
      const value = await redis.command(['GET', keyOf(key)]);
      return typeof value === 'string' ? value : undefined;
    },
    async set(key, value, ttlMs) {
      await redis.command(['SET', keyOf(key), value, 'PX', Math.max(1, Math.ceil(ttlMs))]);
    },
    async delete(key) {
      await redis.command(['DEL', keyOf(key)]);
    },
    async notify(key) {
      await redis.command(['PUBLISH', channel, key]);
    },
    watch(key, listener) {
      subscribed ??= subscriber.subscribe(channel, onNotice).catch(() => {
        // Subscribed again on the next watch: a replica that could not listen hears nothing.
        subscribed = undefined;
      });
      let set = watchers.get(key);
      if (set === undefined) watchers.set(key, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && watchers.get(key) === set) watchers.delete(key);
      };
    },
  };
}
