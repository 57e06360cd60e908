import { checkOptionKeys, optionKeys } from '@parley/core';

/**
 * Where handshake-era sessions and the record of their calls live when several processes serve
 * one endpoint (`http.sessionStore`), so a call waiting on a person outlives the process it
 * began on: another replica rebuilds the session, runs the call again from the top with the
 * answers it already had, and waits for the answer to the question still pending, without
 * asking it again (see `handover.ts`).
 *
 * A small key-value store with expiry and change notices: what Redis, a database with
 * `LISTEN`/`NOTIFY`, or this process's memory can all give. Keys and values are strings Parley
 * makes; a store needs to know nothing of MCP. `@parley/redis` has one for Redis
 * (`createRedisSessionStore`).
 */
export interface SessionStore {
  /** The value kept under `key`, or `undefined` (never set, deleted, or expired). */
  get(key: string): Promise<string | undefined>;
  /** Keep `value` under `key` for `ttlMs` (replacing what was there). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Tell every process that watches `key` (this one too) that it changed. */
  notify(key: string): Promise<void>;
  /**
   * Call `listener` whenever any process notifies `key`, until the returned function is called.
   * Must not throw; a notice may come late or twice, never for a key not notified.
   */
  watch(key: string, listener: () => void): () => void;
}

/** Options of {@link createMemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** Milliseconds since the epoch; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

const MEMORY_OPTIONS = optionKeys<MemorySessionStoreOptions>()(['now']);

/**
 * A {@link SessionStore} in this process's memory: for one process, or for tests. Sessions kept
 * here do not outlive the process; share a store (Redis) between replicas for that.
 */
export function createMemorySessionStore(options: MemorySessionStoreOptions = {}): SessionStore {
  checkOptionKeys('createMemorySessionStore', 'options', options, MEMORY_OPTIONS);
  const now = options.now ?? Date.now;
  const values = new Map<string, { value: string; expires: number }>();
  const watchers = new Map<string, Set<() => void>>();
  return {
    async get(key) {
      const entry = values.get(key);
      if (entry === undefined) return undefined;
      if (entry.expires > now()) return entry.value;
      values.delete(key);
      return undefined;
    },
    async set(key, value, ttlMs) {
      // Re-inserted, so the map stays in expiry order for the sweep below.
      values.delete(key);
      values.set(key, { value, expires: now() + ttlMs });
      for (const [old, entry] of values) {
        if (entry.expires > now()) break;
        values.delete(old);
      }
    },
    async delete(key) {
      values.delete(key);
    },
    async notify(key) {
      for (const listener of [...(watchers.get(key) ?? [])]) listener();
    },
    watch(key, listener) {
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
