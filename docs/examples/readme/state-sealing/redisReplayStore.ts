import { createRedisReplayStore } from '@parley/redis';
import {
  createRequestStateSealer,
  type RequestStateSealer,
} from '@parley/state-sealing';
import { createClient } from 'redis';

/** A sealer whose tokens open once, whichever replica opens them. */
export async function createSealer(
  env: Record<string, string | undefined>,
): Promise<{ sealer: RequestStateSealer; close(): Promise<void> }> {
  // #region replayStore
  const redis = createClient({
    url: env.REDIS_URL,
    disableOfflineQueue: true,
  });
  await redis.connect();

  const sealer = createRequestStateSealer({
    audience: 'booking-server',
    keys: [env.REQUEST_STATE_KEY!],
    replayStore: createRedisReplayStore(redis, { prefix: 'booking:' }),
  });
  // #endregion replayStore
  return { sealer, close: async () => void (await redis.close()) };
}
