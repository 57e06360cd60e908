import { ParleyError } from '@parley/core';

import { randomUUID } from '../utils/randomness.ts';
import { systemClock, type Clock } from './clock.ts';
import { LocalTasks } from './localTasks.ts';
import {
  DEFAULT_LEASE_MS,
  DEFAULT_MAX_REASKS,
  type CancelOutcome,
  type ReportFailure,
  type TaskAccess,
  type TaskEngineOptions,
  type TaskStart,
} from './taskEngineTypes.ts';
import { heartbeatMs } from './taskHeartbeat.ts';
import { isFinished, type TaskRecord } from './taskRecord.ts';
import { createMemoryTaskStore, taskListOwner, type TaskStore } from './taskStore.ts';
import {
  hasLostOwner,
  newTaskRecord,
  withCancel,
  withInputResponses,
  withOwnerLost,
  type UpdateReport,
} from './taskTransitions.ts';

/**
 * Runs tools as tasks: detached from the request that started them, on the replica that
 * created them, with their state in a {@link TaskStore} every replica shares.
 *
 * A handler running as a task can *await* a question (`io.ask`): the question goes on the task
 * (`input_required`, its `inputRequests`), and the handler resumes when the answer arrives
 * through `tasks/update` on any replica, however long that takes; nothing but the task's TTL,
 * a cancel, or the question's own timeout ends the wait. The owner renews a lease on each of
 * its tasks; a task whose owner stopped renewing is `failed` with the reason, never left
 * `working` forever.
 *
 * This file is the engine's face and the part any replica serves for any task (get, update,
 * cancel, list, waiting for the end): reads and writes of the shared store. What only the
 * owning replica does is beside it: running the handlers (localTasks.ts), their waits for
 * answers (taskWaiters.ts, with the questions from taskQuestions.ts), and the lease heartbeat
 * (taskHeartbeat.ts); the shapes callers use are in taskEngineTypes.ts.
 */

function defaultReport(error: unknown, where: { method: string; target: string }): void {
  // eslint-disable-next-line no-console -- the default server log is stderr, which stdio leaves free
  console.error(`[parley] ${where.method} ${where.target}: ${String(error)}`);
}

export class TaskEngine {
  readonly replicaId: string;
  readonly #store: TaskStore;
  readonly #clock: Clock;
  readonly #leaseMs: number;
  readonly #maxReasks: number;
  readonly #report: ReportFailure;
  readonly #local: LocalTasks;
  #closed = false;

  constructor(options: TaskEngineOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#store = options.store ?? createMemoryTaskStore({ now: () => this.#clock.now() });
    this.replicaId = options.replicaId ?? `replica-${randomUUID().slice(0, 8)}`;
    this.#leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#maxReasks = options.maxReasks ?? DEFAULT_MAX_REASKS;
    this.#report = options.report ?? defaultReport;
    if (!Number.isSafeInteger(this.#leaseMs) || this.#leaseMs < 3) {
      throw new RangeError(
        `TaskEngine: leaseMs must be a whole number of milliseconds >= 3 (got ${String(options.leaseMs)}).`,
      );
    }
    this.#local = new LocalTasks({
      store: this.#store,
      clock: this.#clock,
      replicaId: this.replicaId,
      leaseMs: this.#leaseMs,
      report: this.#report,
    });
  }

  get store(): TaskStore {
    return this.#store;
  }

  /** Tasks this replica runs now. */
  get running(): number {
    return this.#local.size;
  }

  /**
   * Create a task and start its work, detached from the caller. Resolves with the task as
   * created, once the store holds it (so a `tasks/get` on any replica finds it).
   */
  async start(init: TaskStart): Promise<TaskRecord> {
    if (this.#closed)
      throw new ParleyError('internal', 'The server is shutting down; no new tasks.');
    const now = this.#clock.now();
    const record = newTaskRecord({
      taskId: randomUUID(),
      scope: init.scope,
      now,
      ttlMs: init.ttlMs,
      pollIntervalMs: init.pollIntervalMs,
      owner: this.replicaId,
      leaseMs: this.#leaseMs,
      ...(init.statusMessage !== undefined ? { statusMessage: init.statusMessage } : {}),
    });
    await this.#store.create(record);
    this.#local.start(record, now, init.run);
    return record;
  }

  /**
   * The task as `access` may see it, or `undefined` (unknown, expired, or someone else's). A
   * running task whose owner stopped renewing its lease is marked `failed` here first.
   */
  async get(taskId: string, access: TaskAccess): Promise<TaskRecord | undefined> {
    const record = await this.#store.get(taskId);
    if (record === undefined || !mayAccess(record, access)) return undefined;
    const now = this.#clock.now();
    if (!hasLostOwner(record, now)) return record;
    return this.#store.update(taskId, (current) => withOwnerLost(current, this.#clock.now()));
  }

  /**
   * Deliver answers (`tasks/update`): partial sets are fine, keys not outstanding are ignored,
   * bad form answers are asked again. `undefined` when there is no such task for `access`.
   *
   * @throws {InvalidInputResponsesError} for answers that are not answers (nothing applied).
   */
  async update(
    taskId: string,
    access: TaskAccess,
    inputResponses: unknown,
  ): Promise<UpdateReport | undefined> {
    if ((await this.get(taskId, access)) === undefined) return undefined;
    let report: UpdateReport | undefined;
    await this.#store.update(taskId, (current) => {
      const applied = withInputResponses(current, inputResponses, {
        now: this.#clock.now(),
        maxReasks: this.#maxReasks,
      });
      report = applied.report;
      return applied.record;
    });
    return report;
  }

  /** Cancel a task (`tasks/cancel`): it is `cancelled` at once, and its handler's signal aborts. */
  async cancel(
    taskId: string,
    access: TaskAccess,
    statusMessage = 'Cancelled at the client’s request.',
  ): Promise<CancelOutcome> {
    const record = await this.get(taskId, access);
    if (record === undefined) return 'unknown';
    if (isFinished(record)) return 'already-ended';
    const after = await this.#store.update(taskId, (current) =>
      withCancel(current, statusMessage, this.#clock.now()),
    );
    return after?.status === 'cancelled' ? 'cancelled' : 'already-ended';
  }

  /** The tasks `access` may list (2025-11-25 `tasks/list`), newest first. */
  async list(
    access: TaskAccess,
    page: { cursor?: string; limit?: number } = {},
  ): Promise<{ tasks: TaskRecord[]; nextCursor?: string }> {
    const owner = taskListOwner(access);
    if (owner === undefined) return { tasks: [] };
    return this.#store.list(owner, {
      limit: page.limit ?? 50,
      ...(page.cursor !== undefined ? { cursor: page.cursor } : {}),
    });
  }

  /**
   * The task once it ended (2025-11-25 `tasks/result` blocks until then): watched, and re-read
   * on the heartbeat's rhythm, until it ends, disappears (`undefined`), or `signal` aborts.
   */
  async finished(
    taskId: string,
    access: TaskAccess,
    signal?: AbortSignal,
  ): Promise<TaskRecord | undefined> {
    for (;;) {
      signal?.throwIfAborted();
      let wake: () => void = () => {};
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const stopWatching = this.#store.watch(taskId, () => wake());
      const stopTimer = this.#clock.setTimer(() => wake(), heartbeatMs(this.#leaseMs));
      const onAbort = (): void => wake();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const record = await this.get(taskId, access);
        if (record === undefined || isFinished(record)) return record;
        await woken;
      } finally {
        stopWatching();
        stopTimer();
        signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  /** Be told of every change to a task (for status notifications). */
  watch(taskId: string, listener: (record: TaskRecord | undefined) => void): () => void {
    return this.#store.watch(taskId, listener);
  }

  /**
   * Stop: no new tasks; this replica's running tasks end `failed` (saying the server stopped),
   * and their handlers' signals abort.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#local.close();
  }
}

function mayAccess(record: TaskRecord, access: TaskAccess): boolean {
  const owner = record.scope.principal;
  return owner === undefined || owner === access.principal;
}
