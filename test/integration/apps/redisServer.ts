import { findRedisServer } from '../../../scripts/redisServer.ts';

/**
 * The `redis-server` the booking app's Redis tests start (with scripts/redisServer.ts). Where
 * there is none they are skipped, with one line saying how to run them; in CI there must be one
 * (.ci/run installs it).
 */
export function redisServerFor(test: string): string | undefined {
  const binary = findRedisServer();
  if (binary !== undefined) return binary;
  const how =
    'install it (apt-get install -y redis-server) or set REDIS_SERVER=/path/to/redis-server, then run pnpm vitest run --project integration apps';
  if (process.env.CI === 'true') throw new Error(`${test} needs redis-server in CI; ${how}`);
  console.warn(`${test}: no redis-server here, so it is skipped; ${how}`);
  return undefined;
}
