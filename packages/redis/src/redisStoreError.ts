import { ParleyError } from '@parley/core';

/**
 * A Redis store could not do its job: Redis is down, unreachable, too slow, or refused the
 * command. The operation did not happen as far as the caller may assume, so the caller fails
 * closed: the round fails (`-32603 Internal error` to the client, the cause for `onError`), and
 * no token is taken as unused.
 */
export class RedisStoreError extends ParleyError {
  static override readonly brand: string = '@parley/redis:RedisStoreError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super('store_unavailable', message, options);
  }
}
