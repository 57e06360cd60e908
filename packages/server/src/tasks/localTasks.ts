import {
  ParleyError,
  TaskCancelledError,
  jsonRpcError,
  type JsonRpcErrorObject,
} from '@parley/core';

import type { Clock } from './clock.ts';
import type { ReportFailure, TaskIO, TaskReplica, TaskStart } from './taskEngineTypes.ts';
import { TaskHeartbeat } from './taskHeartbeat.ts';
import { taskExpiresAt, isFinished, type TaskRecord } from './taskRecord.ts';
import type { TaskStore } from './taskStore.ts';
import {
  withOutcome,
  withProgress,
  withStatusMessage,
  type TaskOutcome,
} from './taskTransitions.ts';
import { TaskWaiters, type Waiter } from './taskWaiters.ts';

/**
 * The tasks this replica runs, in memory beside their shared records: each one's handler, the
 * controller that aborts it, and its waits for answers. Every change to one of them (seen
 * through the store's watch, the heartbeat, or an ask) resumes its waiters or stops its
 * handler. Only the replica that created a task runs it, so this is the engine's per-replica
 * half; the other half (get, update, cancel, list) reads and writes the store for any task.
 */

interface LocalTask {
  controller: AbortController;
  waiters: Map<string, Waiter>;
  stop: (() => void)[];
}

/** The error a task whose handler threw something that is not a protocol error ends with. */
const INTERNAL: JsonRpcErrorObject = jsonRpcError('internalError', 'Internal error');

export class LocalTasks {
  readonly #store: TaskStore;
  readonly #clock: Clock;
  readonly #replicaId: string;
  readonly #report: ReportFailure;
  readonly #local = new Map<string, LocalTask>();
  readonly #waiters: TaskWaiters;
  readonly #heartbeat: TaskHeartbeat;

  constructor(options: TaskReplica) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#replicaId = options.replicaId;
    this.#report = options.report;
    const observe = (taskId: string, record: TaskRecord | undefined): void =>
      this.#observe(taskId, record);
    this.#waiters = new TaskWaiters({ ...options, observe });
    this.#heartbeat = new TaskHeartbeat({ ...options, running: this.#local, observe });
  }

  /** Tasks this replica runs now. */
  get size(): number {
    return this.#local.size;
  }

  /** Run the work of `record`, created at `now` and already in the store, detached. */
  start(record: TaskRecord, now: number, run: TaskStart['run']): void {
    const local: LocalTask = { controller: new AbortController(), waiters: new Map(), stop: [] };
    this.#local.set(record.taskId, local);
    local.stop.push(
      this.#store.watch(record.taskId, (changed) => this.#observe(record.taskId, changed)),
    );
    const expiresAt = taskExpiresAt(record);
    if (expiresAt !== Infinity) {
      local.stop.push(
        this.#clock.setTimer(
          () =>
            local.controller.abort(
              new ParleyError('internal', `Task ${record.taskId} reached the end of its ttl.`),
            ),
          expiresAt - now,
        ),
      );
    }
    this.#heartbeat.arm();
    void this.#run(record.taskId, local, run);
  }

  /** End every task this replica runs `failed` (the server stopped), and abort its handler. */
  async close(): Promise<void> {
    this.#heartbeat.close();
    const error = jsonRpcError(
      'internalError',
      'The server stopped before this task finished; call the tool again.',
      { reason: 'server_stopped' },
    );
    await Promise.all(
      [...this.#local.keys()].map((taskId) =>
        this.#store
          .update(taskId, (current) =>
            withOutcome(current, { kind: 'error', error }, this.#clock.now()),
          )
          .catch((failure: unknown) => this.#report(failure, { method: 'tasks', target: taskId })),
      ),
    );
    for (const local of this.#local.values()) {
      local.controller.abort(new ParleyError('internal', 'The server stopped.'));
    }
  }

  async #run(taskId: string, local: LocalTask, run: TaskStart['run']): Promise<void> {
    const io = this.#io(taskId, local);
    let outcome: TaskOutcome;
    try {
      outcome = await run(io);
    } catch (error) {
      if (!local.controller.signal.aborted)
        this.#report(error, { method: 'tools/call', target: taskId });
      outcome = { kind: 'error', error: INTERNAL };
    }
    try {
      // A task cancelled, expired or failed meanwhile keeps that end (withOutcome refuses).
      await this.#store.update(taskId, (current) =>
        withOutcome(current, outcome, this.#clock.now()),
      );
    } catch (error) {
      this.#report(error, { method: 'tools/call', target: taskId });
    } finally {
      for (const stop of local.stop) stop();
      this.#local.delete(taskId);
      if (this.#local.size === 0) this.#heartbeat.pause();
    }
  }

  #io(taskId: string, local: LocalTask): TaskIO {
    const signal = local.controller.signal;
    const write = async (
      change: (current: TaskRecord) => TaskRecord | undefined,
    ): Promise<void> => {
      await this.#store.update(taskId, change);
    };
    return {
      taskId,
      signal,
      ask: (inputs, options = {}) =>
        this.#waiters.ask(taskId, local.waiters, local.controller.signal, inputs, options),
      setStatusMessage: (message) =>
        write((current) => withStatusMessage(current, message, this.#clock.now())),
      reportProgress: (progress, total, message) =>
        write((current) =>
          withProgress(
            current,
            {
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message !== undefined ? { message } : {}),
            },
            this.#clock.now(),
          ),
        ),
    };
  }

  /** A change to one of this replica's tasks: resume waiters, or stop the handler. */
  #observe(taskId: string, record: TaskRecord | undefined): void {
    const local = this.#local.get(taskId);
    if (local === undefined) return;
    if (record === undefined) {
      local.controller.abort(new ParleyError('internal', `Task ${taskId} no longer exists.`));
      return;
    }
    if (isFinished(record) || record.lease.owner !== this.#replicaId) {
      local.controller.abort(
        record.status === 'cancelled'
          ? new TaskCancelledError({
              taskId,
              ...(record.statusMessage !== undefined
                ? { statusMessage: record.statusMessage }
                : {}),
            })
          : new ParleyError(
              'internal',
              record.status === 'failed' && record.error !== undefined
                ? `Task ${taskId} failed: ${record.error.message}`
                : `Task ${taskId} ended elsewhere (${record.status}).`,
            ),
      );
      return;
    }
    this.#waiters.resume(taskId, local.waiters, record);
  }
}
