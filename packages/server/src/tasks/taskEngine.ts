import {
  ParleyError,
  TaskCancelledError,
  UnsupportedCapabilityError,
  clientFeatureOf,
  missingCapabilities,
  supportsRequest,
  type InputRequest,
  type InputRequests,
  type InputResponses,
  type JsonRpcErrorObject,
} from '@parley/core';

import { askInfoOf } from '../ask/builders.ts';
import { randomUUID } from '../utils/randomness.ts';
import { askedEntryOf } from '../ask/asked.ts';
import { elicitRequestFor } from '../ask/versionSchemas.ts';
import { systemClock, type CancelTimer, type Clock } from './clock.ts';
import { taskExpiresAt, isFinished, type TaskRecord, type TaskScope } from './taskRecord.ts';
import { createMemoryTaskStore, taskListOwner, type TaskStore } from './taskStore.ts';
import {
  hasLostOwner,
  newTaskRecord,
  takeAnswers,
  withCancel,
  withInputResponses,
  withInputs,
  withLeaseRenewed,
  withOutcome,
  withOwnerLost,
  withProgress,
  withStatusMessage,
  withoutWaiter,
  type NewInput,
  type TaskOutcome,
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
 */

/** Who is asking about a task. */
export interface TaskAccess {
  /** The authenticated principal, if any: a task started by a principal is only its own. */
  principal?: string;
  /** Handshake era: the session asking, for `tasks/list`. */
  sessionId?: string;
}

/** What a task's handler gets: its id, its signal, and the way to ask and to report. */
export interface TaskIO {
  readonly taskId: string;
  /** Aborted when the task is cancelled, expires, fails elsewhere, or the server closes. */
  readonly signal: AbortSignal;
  /**
   * Put questions on the task and wait for every answer, by the keys given. Questions of a
   * kind the client cannot answer fail with `UnsupportedCapabilityError` (optional asks are
   * left out instead). A bad form answer has already been asked again, up to the budget.
   */
  ask(
    inputs: InputRequests,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<InputResponses>;
  /** What the task is doing, for the client to show; `undefined` clears it. */
  setStatusMessage(message: string | undefined): Promise<void>;
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
}

/** What starting a task needs. */
export interface TaskStart {
  scope: TaskScope;
  /** How long the task is kept after it starts; `null`: no limit. */
  ttlMs: number | null;
  pollIntervalMs: number;
  statusMessage?: string;
  /** The work. Its outcome is the task's; a throw is an internal error (`failed`). */
  run(io: TaskIO): Promise<TaskOutcome>;
}

export interface TaskEngineOptions {
  store?: TaskStore;
  clock?: Clock;
  /** This replica's name in task leases. Default: a random id. */
  replicaId?: string;
  /** How long a replica's hold on its tasks lasts without a heartbeat. Default 30 s. */
  leaseMs?: number;
  /** How many times a bad answer to one question is asked again. Default 3. */
  maxReasks?: number;
  /** Failures of the engine's own machinery (a store outage during a heartbeat, …). */
  report?: (error: unknown, where: { method: string; target: string }) => void;
}

/** What `tasks/cancel` found. */
export type CancelOutcome = 'cancelled' | 'already-ended' | 'unknown';

export const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_REASKS = 3;

interface Waiter {
  resolve(answers: InputResponses): void;
  /** Its questions are on the task: from now on, none outstanding means all answered. */
  posted: boolean;
  taking: boolean;
}

interface LocalTask {
  controller: AbortController;
  waiters: Map<string, Waiter>;
  stop: (() => void)[];
}

function defaultReport(error: unknown, where: { method: string; target: string }): void {
  // eslint-disable-next-line no-console -- the default server log is stderr, which stdio leaves free
  console.error(`[parley] ${where.method} ${where.target}: ${String(error)}`);
}

/** The error a task whose handler threw something that is not a protocol error ends with. */
const INTERNAL: JsonRpcErrorObject = { code: -32603, message: 'Internal error' };

export class TaskEngine {
  readonly replicaId: string;
  readonly #store: TaskStore;
  readonly #clock: Clock;
  readonly #leaseMs: number;
  readonly #maxReasks: number;
  readonly #report: NonNullable<TaskEngineOptions['report']>;
  readonly #local = new Map<string, LocalTask>();
  #heartbeat: CancelTimer | undefined;
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
    this.#armHeartbeat();
    void this.#run(record.taskId, local, init.run);
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
      const stopTimer = this.#clock.setTimer(() => wake(), this.#beatMs());
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
    this.#heartbeat?.();
    this.#heartbeat = undefined;
    const error: JsonRpcErrorObject = {
      code: -32603,
      message: 'The server stopped before this task finished; call the tool again.',
      data: { reason: 'server_stopped' },
    };
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
      if (this.#local.size === 0) {
        this.#heartbeat?.();
        this.#heartbeat = undefined;
      }
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
      ask: (inputs, options = {}) => this.#ask(taskId, local, inputs, options),
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

  async #ask(
    taskId: string,
    local: LocalTask,
    inputs: InputRequests,
    options: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<InputResponses> {
    const taskSignal = local.controller.signal;
    taskSignal.throwIfAborted();
    options.signal?.throwIfAborted();
    const record = await this.#store.get(taskId);
    if (record === undefined) throw new ParleyError('internal', `Task ${taskId} no longer exists.`);
    const questions = this.#questionsFor(record, inputs);
    if (questions.length === 0) return {};

    const waiterId = randomUUID();
    let resolve: (answers: InputResponses) => void = () => {};
    const answered = new Promise<InputResponses>((done) => (resolve = done));
    const waiter: Waiter = { resolve, posted: false, taking: false };
    local.waiters.set(waiterId, waiter);
    const cleanups: (() => void)[] = [() => local.waiters.delete(waiterId)];
    const givenUp = new Promise<never>((_, reject) => {
      const onAbort = (event: Event): void =>
        reject((event.target as AbortSignal).reason ?? new Error('aborted'));
      for (const signal of [taskSignal, options.signal]) {
        if (signal === undefined) continue;
        signal.addEventListener('abort', onAbort, { once: true });
        cleanups.push(() => signal.removeEventListener('abort', onAbort));
      }
      if (options.timeoutMs !== undefined && options.timeoutMs !== Infinity) {
        const timeoutMs = options.timeoutMs;
        cleanups.push(
          this.#clock.setTimer(
            () =>
              reject(
                new ParleyError(
                  'internal',
                  `No answer to ${questions.map((q) => `'${q.name}'`).join(', ')} within ${timeoutMs} ms.`,
                ),
              ),
            timeoutMs,
          ),
        );
      }
    });
    givenUp.catch(() => {});
    try {
      await this.#store.update(
        taskId,
        (current) =>
          withInputs(
            current,
            questions.map((q) => ({ ...q, waiter: waiterId })),
            this.#clock.now(),
          )?.record,
      );
      waiter.posted = true;
      // An answer that came before this wait was marked posted was not acted on: look again.
      this.#observe(taskId, await this.#store.get(taskId));
      return await Promise.race([answered, givenUp]);
    } catch (error) {
      // The questions leave the task: nobody waits for their answers any more.
      await this.#store
        .update(taskId, (current) => withoutWaiter(current, waiterId, this.#clock.now()))
        .catch(() => undefined);
      throw error;
    } finally {
      for (const cleanup of cleanups) cleanup();
    }
  }

  /**
   * The questions as they go on the task: only those the client declared it can answer
   * (optional ones it cannot are left out), elicitations in the client's version's vocabulary.
   */
  #questionsFor(record: TaskRecord, inputs: InputRequests): Omit<NewInput, 'waiter'>[] {
    if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) {
      throw new TypeError('ask: give an object of input requests by key.');
    }
    const { clientCapabilities, protocolVersion } = record.scope;
    const unanswerable: InputRequest[] = [];
    const questions: Omit<NewInput, 'waiter'>[] = [];
    for (const [name, request] of Object.entries(inputs)) {
      if (!supportsRequest(clientCapabilities, request)) {
        if (askInfoOf(request)?.optional !== true) unanswerable.push(request);
        continue;
      }
      questions.push({
        name,
        request:
          request.method === 'elicitation/create'
            ? elicitRequestFor(request, protocolVersion)
            : request,
        asked: askedEntryOf(request),
      });
    }
    const missing = missingCapabilities(clientCapabilities, unanswerable);
    if (missing !== undefined) {
      throw new UnsupportedCapabilityError(
        { feature: clientFeatureOf(missing), requiredCapabilities: missing },
        {
          message: `The client that started this task did not declare the capabilities its questions need: ${JSON.stringify(missing)}`,
        },
      );
    }
    return questions;
  }

  /** A change to one of this replica's tasks: resume waiters, or stop the handler. */
  #observe(taskId: string, record: TaskRecord | undefined): void {
    const local = this.#local.get(taskId);
    if (local === undefined) return;
    if (record === undefined) {
      local.controller.abort(new ParleyError('internal', `Task ${taskId} no longer exists.`));
      return;
    }
    if (isFinished(record) || record.lease.owner !== this.replicaId) {
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
    for (const [waiterId, waiter] of local.waiters) {
      if (waiter.taking || !waiter.posted) continue;
      const ready = Object.values(record.inputRequests).every(
        (pending) => pending.waiter !== waiterId,
      );
      if (!ready) continue;
      waiter.taking = true;
      void this.#take(taskId, waiterId, waiter);
    }
  }

  async #take(taskId: string, waiterId: string, waiter: Waiter): Promise<void> {
    let answers: InputResponses | undefined;
    try {
      await this.#store.update(taskId, (current) => {
        const taken = takeAnswers(current, waiterId, this.#clock.now());
        answers = taken?.answers;
        return taken?.record;
      });
    } catch (error) {
      this.#report(error, { method: 'tasks/update', target: taskId });
    }
    if (answers !== undefined) waiter.resolve(answers);
    else waiter.taking = false;
  }

  #beatMs(): number {
    return Math.max(1, Math.floor(this.#leaseMs / 3));
  }

  /** One timer for all of this replica's tasks: renew each lease, and re-read each task. */
  #armHeartbeat(): void {
    if (this.#heartbeat !== undefined || this.#closed) return;
    this.#heartbeat = this.#clock.setTimer(() => {
      this.#heartbeat = undefined;
      void this.#beat().finally(() => {
        if (this.#local.size > 0) this.#armHeartbeat();
      });
    }, this.#beatMs());
  }

  async #beat(): Promise<void> {
    await Promise.all(
      [...this.#local.keys()].map(async (taskId) => {
        try {
          const record = await this.#store.update(taskId, (current) =>
            withLeaseRenewed(current, this.replicaId, this.#clock.now() + this.#leaseMs),
          );
          this.#observe(taskId, record);
        } catch (error) {
          this.#report(error, { method: 'tasks', target: taskId });
        }
      }),
    );
  }
}

function mayAccess(record: TaskRecord, access: TaskAccess): boolean {
  const owner = record.scope.principal;
  return owner === undefined || owner === access.principal;
}
