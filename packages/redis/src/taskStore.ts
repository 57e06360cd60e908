import { checkOptionKeys, optionKeys } from '@parley/core';
import { taskExpiresAt, taskListOwner, type TaskRecord, type TaskStore } from '@parley/server';

import { connectStore, type RedisClient, type RedisStoreOptions } from './redisClient.ts';
import { RedisStoreError } from './redisStoreError.ts';

/**
 * The part of a Redis client that listens: a node-redis client in subscriber mode (a
 * `client.duplicate()`, connected) fits as it is. It must be a connection of its own: a client
 * that subscribed runs no other commands.
 */
export interface RedisSubscriber {
  subscribe(
    channel: string,
    listener: (message: string, channel: string) => void,
  ): Promise<unknown>;
  unsubscribe(
    channel: string,
    listener?: (message: string, channel: string) => void,
  ): Promise<unknown>;
}

/** Options of {@link createRedisTaskStore}. */
export interface RedisTaskStoreOptions extends RedisStoreOptions {
  /**
   * Where change notices arrive: a subscriber connection. Without one, `watch` is never
   * notified, and a replica learns of answers on its own heartbeat only (every lease / 3).
   */
  subscriber?: RedisSubscriber;
  /**
   * How much longer than its TTL a task is kept, for clocks of replicas that run behind
   * Redis's. Default 30 000 ms.
   */
  clockSkewMs?: number;
  /** Milliseconds since the epoch, that expiry is judged by. Default `Date.now`. */
  now?: () => number;
}

const API = 'createRedisTaskStore';

/** Retries of one change when other replicas keep writing the same task in between. */
const MAX_ATTEMPTS = 100;

/** A short random pause before a retry, growing, so that writers that collided spread out. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(25, 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// One task is one hash, `<prefix>task:{<id>}`: `rev` (its revision) and `json` (the record).
// Every write goes through a script that compares the revision it read with the stored one,
// so a change computed from a stale read is never stored: the caller reads again and retries.

/** KEYS: task[, owner index]. ARGV: json, rev, expire-at ms (0: never), created-at, task id. */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'json', ARGV[1])
local expireAt = tonumber(ARGV[3])
if expireAt > 0 then redis.call('PEXPIREAT', KEYS[1], ARGV[3]) end
if #KEYS > 1 then
  local pttl = redis.call('PTTL', KEYS[2])
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
  if expireAt == 0 then
    redis.call('PERSIST', KEYS[2])
  elseif pttl == -2 then
    redis.call('PEXPIREAT', KEYS[2], ARGV[3])
  elseif pttl >= 0 then
    local t = redis.call('TIME')
    local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    if now + pttl < expireAt then redis.call('PEXPIREAT', KEYS[2], ARGV[3]) end
  end
end
return 1
`;

/** KEYS: task. ARGV: expected rev, new rev, json, channel. */
const UPDATE = `
local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return -1 end
if rev ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'json', ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[2])
return 1
`;

/** KEYS: task[, owner index]. ARGV: task id, channel. */
const DELETE = `
local gone = redis.call('DEL', KEYS[1])
if #KEYS > 1 then redis.call('ZREM', KEYS[2], ARGV[1]) end
if gone == 1 then redis.call('PUBLISH', ARGV[2], 'deleted') end
return gone
`;

type Position = { createdAt: number; taskId: string };

function newestFirst(a: Position, b: Position): number {
  return b.createdAt - a.createdAt || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
}

function readCursor(cursor: string): Position {
  const dot = cursor.indexOf('.');
  const createdAt = Number(cursor.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(createdAt) || dot === cursor.length - 1) {
    throw new TypeError(
      `tasks/list: the cursor ${JSON.stringify(cursor)} is not one this server gave.`,
    );
  }
  return { createdAt, taskId: cursor.slice(dot + 1) };
}

/**
 * A `TaskStore` (the task state of `@parley/server`) on Redis, shared by every replica: any
 * replica answers `tasks/get`, `tasks/update` and `tasks/cancel` for a task another one runs,
 * and the replica that awaits an answer hears of it through Redis pub/sub (`subscriber`).
 *
 * Keys (each task's own in one hash slot, so Redis Cluster takes them too):
 * - `<prefix>task:{<taskId>}`, a hash: `rev` and `json` (the record); it expires with the
 *   task's TTL (plus `clockSkewMs`);
 * - `<prefix>tasks-of:<owner>`, a sorted set of the task ids of one principal or session, for
 *   2025-11-25 `tasks/list`;
 * - change notices are published on `<prefix>task-changed:{<taskId>}`.
 *
 * Fails closed: when Redis is down, slow or refuses, every method rejects with a
 * `RedisStoreError`, so no answer is taken as delivered and no task as created. Run Redis with
 * `maxmemory-policy noeviction`, so it never drops a live task to make room.
 */
const OPTION_KEYS = optionKeys<RedisTaskStoreOptions>()([
  'prefix',
  'commandTimeoutMs',
  'subscriber',
  'clockSkewMs',
  'now',
]);

export function createRedisTaskStore(
  client: RedisClient,
  options: RedisTaskStoreOptions = {},
): TaskStore {
  checkOptionKeys(API, 'options', options, OPTION_KEYS);
  const redis = connectStore(API, client, options);
  const { subscriber, clockSkewMs = 30_000, now = Date.now } = options;
  if (!Number.isSafeInteger(clockSkewMs) || clockSkewMs < 0) {
    throw new RangeError(`${API}: clockSkewMs must be an integer ≥ 0 (got ${String(clockSkewMs)})`);
  }
  if (
    subscriber !== undefined &&
    (typeof subscriber.subscribe !== 'function' || typeof subscriber.unsubscribe !== 'function')
  ) {
    throw new TypeError(
      `${API}: subscriber must be a subscribed Redis client (client.duplicate())`,
    );
  }
  const keyOf = (taskId: string): string => {
    if (typeof taskId !== 'string' || taskId === '') {
      throw new TypeError(`${API}: taskId must be a non-empty string`);
    }
    return `${redis.prefix}task:{${taskId}}`;
  };
  const channelOf = (taskId: string) => `${redis.prefix}task-changed:{${taskId}}`;
  const indexOf = (owner: string) => `${redis.prefix}tasks-of:${owner}`;
  const ownerKeys = (record: TaskRecord): string[] => {
    const owner = taskListOwner(record.scope);
    return owner === undefined ? [] : [indexOf(owner)];
  };

  const read = async (taskId: string): Promise<TaskRecord | undefined> => {
    const json = (await redis.command(['HGET', keyOf(taskId), 'json'])) as string | null;
    if (json === null) return undefined;
    let record: TaskRecord;
    try {
      record = JSON.parse(json) as TaskRecord;
    } catch (error) {
      throw new RedisStoreError(`${API}: task ${taskId} is not valid JSON in Redis`, {
        cause: error,
      });
    }
    return taskExpiresAt(record) <= now() ? undefined : record;
  };

  /** Subscriptions by channel: one per task, shared by its listeners. */
  const watched = new Map<
    string,
    {
      listeners: Set<(record: TaskRecord | undefined) => void>;
      onMessage: (message: string) => void;
    }
  >();

  return {
    async create(record) {
      const expiresAt = taskExpiresAt(record);
      const created = await redis.script(
        CREATE,
        [keyOf(record.taskId), ...ownerKeys(record)],
        [
          JSON.stringify(record),
          record.revision,
          expiresAt === Infinity ? 0 : Math.ceil(expiresAt) + clockSkewMs,
          record.createdAt,
          record.taskId,
        ],
      );
      if (created !== 1) throw new Error(`${API}: task ${record.taskId} already exists.`);
    },
    get: read,
    async update(taskId, change) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        if (attempt > 0) await backoff(attempt);
        const current = await read(taskId);
        if (current === undefined) return undefined;
        const updated = change(structuredClone(current));
        if (updated === undefined) return current;
        if (updated.revision === current.revision) {
          throw new TypeError(`${API}: a change to task ${taskId} must bump its revision`);
        }
        const stored = await redis.script(
          UPDATE,
          [keyOf(taskId)],
          [current.revision, updated.revision, JSON.stringify(updated), channelOf(taskId)],
        );
        if (stored === 1) return updated;
        if (stored === -1) return undefined;
      }
      throw new RedisStoreError(
        `${API}: task ${taskId} changed under every one of ${MAX_ATTEMPTS} attempts to update it`,
      );
    },
    async delete(taskId) {
      const record = await read(taskId);
      await redis.script(
        DELETE,
        [keyOf(taskId), ...(record === undefined ? [] : ownerKeys(record))],
        [taskId, channelOf(taskId)],
      );
    },
    async list(owner, page) {
      const after = page.cursor === undefined ? undefined : readCursor(page.cursor);
      const reply = (await redis.command([
        'ZREVRANGE',
        indexOf(owner),
        0,
        -1,
        'WITHSCORES',
      ])) as unknown[];
      const positions: Position[] = [];
      // RESP3 answers [member, score] pairs; RESP2 one flat list.
      if (reply.every(Array.isArray)) {
        for (const [member, score] of reply as [unknown, unknown][]) {
          positions.push({ taskId: String(member), createdAt: Number(score) });
        }
      } else {
        for (let i = 0; i + 1 < reply.length; i += 2) {
          positions.push({ taskId: String(reply[i]), createdAt: Number(reply[i + 1]) });
        }
      }
      positions.sort(newestFirst);
      const candidates = positions.filter((p) => after === undefined || newestFirst(p, after) > 0);
      const tasks: TaskRecord[] = [];
      let last: Position | undefined;
      let more = false;
      for (const position of candidates) {
        if (tasks.length === page.limit) {
          more = true;
          break;
        }
        const record = await read(position.taskId);
        if (record === undefined) {
          // Expired or deleted: the index forgets it too.
          await redis.command(['ZREM', indexOf(owner), position.taskId]);
          continue;
        }
        tasks.push(record);
        last = position;
      }
      return {
        tasks,
        ...(more && last !== undefined ? { nextCursor: `${last.createdAt}.${last.taskId}` } : {}),
      };
    },
    watch(taskId, listener) {
      const channel = channelOf(taskId);
      let entry = watched.get(channel);
      if (entry === undefined) {
        const listeners = new Set<(record: TaskRecord | undefined) => void>();
        const onMessage = (): void => {
          void read(taskId).then(
            (record) => {
              for (const each of [...listeners]) {
                try {
                  each(record);
                } catch {
                  // A listener's failure is its own.
                }
              }
            },
            // A notice that cannot be followed up is lost; readers re-read on their own rhythm.
            () => {},
          );
        };
        entry = { listeners, onMessage };
        watched.set(channel, entry);
        void subscriber?.subscribe(channel, onMessage).catch(() => {});
      }
      entry.listeners.add(listener);
      const current = entry;
      return () => {
        current.listeners.delete(listener);
        if (current.listeners.size > 0 || watched.get(channel) !== current) return;
        watched.delete(channel);
        void subscriber?.unsubscribe(channel, current.onMessage).catch(() => {});
      };
    },
  };
}
