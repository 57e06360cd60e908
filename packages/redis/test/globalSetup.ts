import type { TestProject } from 'vitest/node';

import { findRedisServer } from './helpers/redisServer.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The `redis-server` binary, or `null` where there is none (the Redis suites skip). */
    redisServer: string | null;
  }
}

/** Decide once per run whether the Redis suites run: required in CI, skipped (one line) elsewhere. */
export default function setup(project: TestProject): void {
  const binary = findRedisServer() ?? null;
  if (binary === null) {
    const how =
      'install it (apt-get install -y redis-server) or set REDIS_SERVER=/path/to/redis-server, then run pnpm vitest run --project @parley/redis';
    if (process.env.CI === 'true') {
      throw new Error(`@parley/redis: redis-server is required in CI and was not found; ${how}`);
    }
    console.warn(`@parley/redis: no redis-server here, so the Redis suites are skipped; ${how}`);
  }
  project.provide('redisServer', binary);
}
