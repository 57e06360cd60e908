import { checkOptionKeys, optionKeys } from '@parley/core';
import type { SingleUseBegin, SingleUseStore } from '@parley/server';

import { connectStore, type RedisClient, type RedisStoreOptions } from './redisClient.ts';

/** Options of {@link createRedisSingleUseStore}. */
export interface RedisSingleUseStoreOptions extends RedisStoreOptions {
  /**
   * How much longer than a token's own expiry its record is kept, for clocks of replicas that
   * run behind Redis's. Default 30 000 ms, the clock skew the sealer tolerates.
   */
  clockSkewMs?: number;
}

const API = 'createRedisSingleUseStore';

// Each script reads and writes one token's two keys in one step, so no other replica can act
// between its read and its write. Times are Redis's own clock (TIME), the one clock every
// replica shares; expiries are absolute (PEXPIREAT), from the token's own expiry.

/** KEYS: record, outcome. ARGV: run id, lease ms, keep-until ms. */
const BEGIN = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local record = redis.call('HMGET', KEYS[1], 'state', 'lease')
if record[1] == 'finished' then
  local outcome = redis.call('GET', KEYS[2])
  if outcome then return {'finished', outcome} end
  return {'spent'}
end
if record[1] == 'running' and tonumber(record[2]) > now then return {'running'} end
local lease = now + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'state', 'running', 'run', ARGV[1], 'lease', string.format('%d', lease))
redis.call('PEXPIREAT', KEYS[1], string.format('%d', math.max(tonumber(ARGV[3]), lease)))
return {'started'}
`;

/** KEYS: record, outcome. ARGV: outcome, replay window ms, keep-until ms. */
const FINISH = `
if redis.call('HGET', KEYS[1], 'state') == 'finished' then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'state', 'finished')
redis.call('PEXPIREAT', KEYS[1], string.format('%d', math.max(tonumber(ARGV[3]), now + 1000)))
local window = tonumber(ARGV[2])
if window > 0 then redis.call('SET', KEYS[2], ARGV[1], 'PX', string.format('%d', window)) end
return 1
`;

/** KEYS: record. ARGV: run id. */
const RELEASE = `
local record = redis.call('HMGET', KEYS[1], 'state', 'run')
if record[1] == 'running' and record[2] == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

function checkMs(name: string, value: unknown, method: string): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(
      `${API}: ${method}: ${name} must be a finite number ≥ 0 (got ${String(value)})`,
    );
  }
}

/**
 * A `SingleUseStore` (`requestStateSecurity.singleUse` of `@parley/server`) on Redis, shared by
 * every replica: a token is spent by the round that completes with it, on whichever replica.
 *
 * Keys, per token id (in one hash slot, so Redis Cluster takes them too):
 * - `<prefix>use:{<tokenId>}`, a hash: `state` `running` (with the `run` that holds it and its
 *   `lease` deadline) or `finished`; it expires with the token (`expiresAt` + `clockSkewMs`);
 * - `<prefix>outcome:{<tokenId>}`, the finished round's outcome, kept for the replay window.
 *
 * Fails closed: when Redis is down, slow or refuses, every method rejects with a
 * `RedisStoreError`, the round fails, and nothing counts as unused. Redis must keep what it was
 * told (run it with `maxmemory-policy noeviction`, and with persistence if a restart must not
 * forget spent tokens).
 */
const OPTION_KEYS = optionKeys<RedisSingleUseStoreOptions>()([
  'prefix',
  'commandTimeoutMs',
  'clockSkewMs',
]);

export function createRedisSingleUseStore(
  client: RedisClient,
  options: RedisSingleUseStoreOptions = {},
): SingleUseStore {
  checkOptionKeys(API, 'options', options, OPTION_KEYS);
  const redis = connectStore(API, client, options);
  const { clockSkewMs = 30_000 } = options;
  if (!Number.isSafeInteger(clockSkewMs) || clockSkewMs < 0) {
    throw new RangeError(`${API}: clockSkewMs must be an integer ≥ 0 (got ${String(clockSkewMs)})`);
  }
  const keysOf = (tokenId: string): [string, string] => {
    if (typeof tokenId !== 'string' || tokenId === '') {
      throw new TypeError(`${API}: tokenId must be a non-empty string`);
    }
    return [`${redis.prefix}use:{${tokenId}}`, `${redis.prefix}outcome:{${tokenId}}`];
  };
  const keepUntil = (expiresAt: number) => Math.ceil(expiresAt) + clockSkewMs;
  // The run this process holds for each token it started, so that a release only ever frees its
  // own run: after a lease ran out, another replica's run of the token is not ours to free.
  const runs = new Map<string, string>();

  return {
    async begin(tokenId, { leaseMs, expiresAt }) {
      const keys = keysOf(tokenId);
      checkMs('leaseMs', leaseMs, 'begin');
      checkMs('expiresAt', expiresAt, 'begin');
      const run = crypto.randomUUID();
      const reply = await redis.script(BEGIN, keys, [
        run,
        Math.ceil(leaseMs),
        keepUntil(expiresAt),
      ]);
      const [status, outcome] = reply as [SingleUseBegin['status'], string | undefined];
      switch (status) {
        case 'started':
          runs.set(tokenId, run);
          return { status };
        case 'finished':
          return { status, outcome: String(outcome) };
        case 'running':
        case 'spent':
          return { status };
        default:
          throw new TypeError(`${API}: unexpected reply from Redis: ${JSON.stringify(reply)}`);
      }
    },
    async finish(tokenId, outcome, { replayWindowMs, expiresAt }) {
      const keys = keysOf(tokenId);
      checkMs('replayWindowMs', replayWindowMs, 'finish');
      checkMs('expiresAt', expiresAt, 'finish');
      if (typeof outcome !== 'string')
        throw new TypeError(`${API}: finish: outcome must be a string`);
      await redis.script(FINISH, keys, [outcome, Math.ceil(replayWindowMs), keepUntil(expiresAt)]);
      runs.delete(tokenId);
    },
    async release(tokenId) {
      const [record] = keysOf(tokenId);
      const run = runs.get(tokenId);
      // Not a run of ours: leave it; at worst the token waits for its lease to run out.
      if (run === undefined) return;
      try {
        await redis.script(RELEASE, [record], [run]);
      } finally {
        // Released or not, this process is done with the run; unreleased, its lease runs out.
        runs.delete(tokenId);
      }
    },
  };
}
