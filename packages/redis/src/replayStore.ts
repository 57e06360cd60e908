import { checkOptionKeys, optionKeys } from '@parley/core';
import type { ReplayStore } from '@parley/state-sealing';

import { connectStore, type RedisClient, type RedisStoreOptions } from './redisClient.ts';

/** Options of {@link createRedisReplayStore}. */
export interface RedisReplayStoreOptions extends RedisStoreOptions {
  /** How much longer than its expiry a claim is kept, for clocks that differ. Default 30 000 ms. */
  clockSkewMs?: number;
}

const API = 'createRedisReplayStore';

/**
 * A `ReplayStore` (the `replayStore` option of `@parley/state-sealing`'s sealer) on Redis: each
 * token opens once across every replica. One key per token, `<prefix>claim:{<tokenId>}`, set
 * only if absent (`SET NX`, atomic) and expiring with the token. When Redis fails, `claim`
 * rejects with a `RedisStoreError` and the token does not open.
 *
 * This is the sealer's strict single use (every open spends the token, even one whose round
 * then fails); a `ParleyServer` wants {@link createRedisSingleUseStore} instead, which spends a
 * token only by a round that completes and answers a retry the same.
 */
const OPTION_KEYS = optionKeys<RedisReplayStoreOptions>()([
  'prefix',
  'commandTimeoutMs',
  'clockSkewMs',
]);

export function createRedisReplayStore(
  client: RedisClient,
  options: RedisReplayStoreOptions = {},
): ReplayStore {
  checkOptionKeys(API, 'options', options, OPTION_KEYS);
  const redis = connectStore(API, client, options);
  const { clockSkewMs = 30_000 } = options;
  if (!Number.isSafeInteger(clockSkewMs) || clockSkewMs < 0) {
    throw new RangeError(`${API}: clockSkewMs must be an integer ≥ 0 (got ${String(clockSkewMs)})`);
  }
  return {
    async claim(tokenId, expiresAt) {
      if (typeof tokenId !== 'string' || tokenId === '' || !Number.isFinite(expiresAt)) {
        throw new TypeError(`${API}: claim(tokenId: string, expiresAt: number)`);
      }
      // Never an expiry in the past, which Redis would refuse (or apply at once).
      const until = Math.max(Math.ceil(expiresAt) + clockSkewMs, Date.now() + 1_000);
      const reply = await redis.command([
        'SET',
        `${redis.prefix}claim:{${tokenId}}`,
        '1',
        'NX',
        'PXAT',
        until,
      ]);
      return reply === 'OK';
    },
  };
}
