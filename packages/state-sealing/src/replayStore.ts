import { checkKnownKeys } from './knownKeys.ts';

// #region ReplayStore
/**
 * Remembers which tokens have been opened, so that a sealer configured with it opens each token
 * once. For several replicas the store must be shared, and claiming atomic across all of them.
 */
export interface ReplayStore {
  /**
   * Records `tokenId` as used. Resolves `true` the first time an id is claimed and `false` on
   * every later claim until `expiresAt` (milliseconds since the epoch), after which the token
   * can no longer open anyway and the store may forget it. A rejection propagates out of
   * `open` unchanged (the store failed; the token was not judged), so the request fails closed.
   */
  claim(tokenId: string, expiresAt: number): Promise<boolean>;
}
// #endregion ReplayStore

/** Options of {@link createMemoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /** The most token ids held at once. Default 100 000 (a few megabytes). */
  maxEntries?: number;
  /** Milliseconds since the epoch; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

const API = 'createMemoryReplayStore';

/**
 * A {@link ReplayStore} in this process's memory: right for one process, wrong for several
 * replicas (each would have its own memory). Expired ids are dropped as time passes.
 *
 * When it is full of ids that have not expired yet, `claim` rejects with an `Error` instead of
 * forgetting one (forgetting would let that token be replayed): size `maxEntries` for the most
 * tokens you open within one TTL.
 */
export function createMemoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStore {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${API}: options must be an object`);
  }
  checkKnownKeys(API, options, ['maxEntries', 'now'] satisfies (keyof MemoryReplayStoreOptions)[]);
  const { maxEntries = 100_000, now = Date.now } = options;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) {
    throw new RangeError(
      `${API}: maxEntries must be a positive integer (got ${String(maxEntries)})`,
    );
  }
  if (typeof now !== 'function') throw new TypeError(`${API}: now must be a function`);

  // Insertion order is roughly expiry order (one TTL per sealer), so expired ids are found at the
  // front; a full sweep runs only when the store is full.
  const expiries = new Map<string, number>();

  function dropExpiredFront(time: number): void {
    for (const [id, expiresAt] of expiries) {
      if (expiresAt > time) return;
      expiries.delete(id);
    }
  }

  function sweep(time: number): void {
    for (const [id, expiresAt] of expiries) if (expiresAt <= time) expiries.delete(id);
  }

  return {
    claim(tokenId, expiresAt) {
      if (typeof tokenId !== 'string' || !Number.isFinite(expiresAt)) {
        return Promise.reject(new TypeError(`${API}: claim(tokenId: string, expiresAt: number)`));
      }
      const time = now();
      dropExpiredFront(time);
      const seen = expiries.get(tokenId);
      if (seen !== undefined && seen > time) return Promise.resolve(false);
      if (expiries.size >= maxEntries) {
        sweep(time);
        if (expiries.size >= maxEntries) {
          return Promise.reject(
            new Error(
              `${API}: full (${maxEntries} unexpired token ids); refusing rather than forgetting one. Raise maxEntries or use a shared store`,
            ),
          );
        }
      }
      // Re-inserting moves an expired id to the back, keeping the front-expires-first order.
      expiries.delete(tokenId);
      expiries.set(tokenId, expiresAt);
      return Promise.resolve(true);
    },
  };
}
