import { RedisStoreError } from './redisStoreError.ts';

/**
 * The part of a Redis client the stores use: a `redis` (node-redis ≥ 5) client from
 * `createClient()` fits as it is. Create it with `disableOfflineQueue: true`, so that a command
 * sent while Redis is unreachable fails at once instead of waiting for a reconnection.
 */
export interface RedisClient {
  /** `true` while connected and ready for commands. */
  readonly isReady: boolean;
  /** Send one raw command (`['EVAL', script, …]`) and resolve with its reply. */
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
}

/** What every store takes besides its client. */
export interface RedisStoreOptions {
  /**
   * Put in front of every key the store writes, so several applications (or several
   * deployments of one) share a Redis without meeting. Default `'parley:'`.
   */
  prefix?: string;
  /** How long one command may take before the store gives up with an error. Default 2000 ms. */
  commandTimeoutMs?: number;
}

/** The validated connection a store runs its commands on. */
export interface StoreConnection {
  prefix: string;
  /** Run a Lua script atomically on Redis. */
  script(source: string, keys: string[], args: (string | number)[]): Promise<unknown>;
  /** Run one plain command. */
  command(args: (string | number)[]): Promise<unknown>;
}

const PREFIX = /^[\x21-\x7e]{0,64}$/;

/** Check a store's client and options, naming `api` in every complaint. */
export function connectStore(
  api: string,
  client: RedisClient,
  options: RedisStoreOptions,
): StoreConnection {
  if (typeof client !== 'object' || client === null || typeof client.sendCommand !== 'function') {
    throw new TypeError(
      `${api}: client must be a Redis client with sendCommand (createClient() from 'redis')`,
    );
  }
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${api}: options must be an object`);
  }
  const { prefix = 'parley:', commandTimeoutMs = 2_000 } = options;
  if (typeof prefix !== 'string' || !PREFIX.test(prefix) || /[{}]/.test(prefix)) {
    throw new TypeError(
      `${api}: prefix must be at most 64 printable ASCII characters without spaces or braces (got ${JSON.stringify(prefix)})`,
    );
  }
  if (!Number.isSafeInteger(commandTimeoutMs) || commandTimeoutMs < 1) {
    throw new RangeError(
      `${api}: commandTimeoutMs must be a positive integer (got ${String(commandTimeoutMs)})`,
    );
  }

  async function send(args: string[], what: string): Promise<unknown> {
    // A client that is not ready would queue the command (or refuse it with a vaguer error).
    if (client.isReady === false) {
      throw new RedisStoreError(`${api}: Redis is not connected; ${what} failed`);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new RedisStoreError(
              `${api}: Redis did not answer within ${commandTimeoutMs} ms; ${what} failed`,
            ),
          ),
        commandTimeoutMs,
      );
    });
    try {
      return await Promise.race([client.sendCommand(args, { timeout: commandTimeoutMs }), timeout]);
    } catch (error) {
      if (error instanceof RedisStoreError) throw error;
      throw new RedisStoreError(`${api}: ${what} failed: ${messageOf(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    prefix,
    script: (source, keys, args) =>
      send(['EVAL', source, String(keys.length), ...keys, ...args.map(String)], 'a script'),
    command: (args) => send(args.map(String), String(args[0])),
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
