import { checkOptionKeys, optionKeys } from '@parley/core';

import { taskExpiresAt, type TaskRecord } from './taskRecord.ts';

/**
 * Where tasks live. In memory by default (one process); a shared store (Redis, in
 * `@parley/redis`) for replicas, so that any replica answers `tasks/get`, `tasks/update` and
 * `tasks/cancel` for a task another one runs, and the answers reach the replica that awaits
 * them.
 *
 * What a store must guarantee:
 *
 * - **Durable creation**: `create` resolves only once a `get` on any replica finds the task
 *   (the spec forbids answering with the task before that).
 * - **Atomic changes**: `update` applies a change to the record as it is now, with no write in
 *   between (compare-and-set on `revision`, retrying the change when another replica won), so
 *   two replicas delivering answers at once lose neither.
 * - **Change notices**: `watch` tells a listener of every write to a task, whichever replica
 *   made it. Notices may be lost (pub/sub is at most once): the task engine also re-reads on
 *   its own heartbeat, so a lost notice delays, and never loses, an answer.
 * - **Expiry**: a record may be forgotten once its TTL ran out (`taskExpiresAt(record)`); `get`
 *   must not return it after that.
 *
 * The replica that runs a task holds a lease on it (`record.lease`), renewed through `update`
 * by its heartbeat. A task whose lease ran out while it was still running is marked `failed`
 * by whichever replica reads it next: its owner died, and nothing else can resume it.
 */
export interface TaskStore {
  /** Store a new task; resolves once every replica can `get` it. */
  create(record: TaskRecord): Promise<void>;
  /** The task as it is now, or `undefined` (never created, expired, or deleted). */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Atomically change a task. `change` gets the current record and returns the next one (with
   * `revision` bumped), or `undefined` to leave it as it is; it may be called again if another
   * write came first. Resolves with the record as stored afterwards (`undefined`: no such task).
   * When `change` throws, nothing is written and `update` rejects with that error.
   */
  update(
    taskId: string,
    change: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined>;
  /** Forget a task. */
  delete(taskId: string): Promise<void>;
  /**
   * The tasks listed under `owner` (a principal, or a handshake-era session), newest first, a
   * page at a time (2025-11-25 `tasks/list`). `cursor` is what the previous page returned.
   *
   * @throws {TypeError} for a cursor the store did not give.
   */
  list(
    owner: string,
    page: { cursor?: string; limit: number },
  ): Promise<{ tasks: TaskRecord[]; nextCursor?: string }>;
  /** Be told of every later write to a task, by any replica; returns the way to stop. */
  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void;
}

/** Who a task is listed under, for `tasks/list`: its principal, else its session. */
export function taskListOwner(who: { principal?: string; sessionId?: string }): string | undefined {
  const { principal, sessionId } = who;
  if (principal !== undefined) return `principal:${principal}`;
  return sessionId === undefined ? undefined : `session:${sessionId}`;
}

/** Options of {@link createMemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** The most tasks held at once; creating one more fails (never forgets a live task). Default 10 000. */
  maxTasks?: number;
  /** Milliseconds since the epoch, that expiry is judged by; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

const API = 'createMemoryTaskStore';

type Position = Pick<TaskRecord, 'createdAt' | 'taskId'>;

/** Newest first; equal times by id, so the order is total and pages never overlap. */
function newestFirst(a: Position, b: Position): number {
  return b.createdAt - a.createdAt || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
}

function cursorOf(record: Position): string {
  return `${record.createdAt}.${record.taskId}`;
}

/** The position a cursor stands for. @throws {TypeError} for a cursor this store did not make. */
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
 * A {@link TaskStore} in this process's memory: right for one process, wrong for replicas. It
 * copies records in and out, so no caller can change a stored task except through `update`.
 */
const MEMORY_STORE_OPTIONS = optionKeys<MemoryTaskStoreOptions>()(['maxTasks', 'now']);

export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  checkOptionKeys(API, 'options', options, MEMORY_STORE_OPTIONS);
  const { maxTasks = 10_000, now = Date.now } = options;
  if (!Number.isSafeInteger(maxTasks) || maxTasks < 1) {
    throw new RangeError(`${API}: maxTasks must be a positive integer (got ${String(maxTasks)}).`);
  }
  const tasks = new Map<string, TaskRecord>();
  const listeners = new Map<string, Set<(record: TaskRecord | undefined) => void>>();

  const live = (taskId: string): TaskRecord | undefined => {
    const record = tasks.get(taskId);
    if (record !== undefined && taskExpiresAt(record) <= now()) {
      tasks.delete(taskId);
      return undefined;
    }
    return record;
  };
  const sweep = (): void => {
    const time = now();
    for (const [taskId, record] of tasks) if (taskExpiresAt(record) <= time) tasks.delete(taskId);
  };
  const notify = (taskId: string, record: TaskRecord | undefined): void => {
    for (const listener of [...(listeners.get(taskId) ?? [])]) {
      try {
        listener(record === undefined ? undefined : structuredClone(record));
      } catch {
        // A listener's failure is its own; the write happened.
      }
    }
  };

  return {
    async create(record) {
      if (tasks.has(record.taskId))
        throw new Error(`${API}: task ${record.taskId} already exists.`);
      if (tasks.size >= maxTasks) sweep();
      if (tasks.size >= maxTasks) {
        throw new Error(`${API}: the store holds ${maxTasks} tasks already (maxTasks).`);
      }
      tasks.set(record.taskId, structuredClone(record));
    },
    async get(taskId) {
      const record = live(taskId);
      return record === undefined ? undefined : structuredClone(record);
    },
    async update(taskId, change) {
      const current = live(taskId);
      if (current === undefined) return undefined;
      const updated = change(structuredClone(current));
      if (updated === undefined) return structuredClone(current);
      tasks.set(taskId, structuredClone(updated));
      notify(taskId, updated);
      return structuredClone(updated);
    },
    async delete(taskId) {
      if (!tasks.delete(taskId)) return;
      notify(taskId, undefined);
    },
    async list(owner, page) {
      sweep();
      const after = page.cursor === undefined ? undefined : readCursor(page.cursor);
      const mine = [...tasks.values()]
        .filter((record) => taskListOwner(record.scope) === owner)
        .sort(newestFirst)
        .filter((record) => after === undefined || newestFirst(record, after) > 0);
      const slice = mine.slice(0, page.limit);
      const last = slice.at(-1);
      return {
        tasks: slice.map((record) => structuredClone(record)),
        ...(last !== undefined && mine.length > slice.length ? { nextCursor: cursorOf(last) } : {}),
      };
    },
    watch(taskId, listener) {
      let set = listeners.get(taskId);
      if (set === undefined) listeners.set(taskId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(taskId);
      };
    },
  };
}
