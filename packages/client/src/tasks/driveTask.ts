import {
  JSON_RPC_ERROR_CODES,
  RoundsExceededError,
  TaskCancelledError,
  isTerminalTaskStatus,
  type InputRequest,
  type InputRequests,
  type InputResponse,
  type InputResponses,
} from '@parley/core';
import { ProtocolError, type StandardSchemaV1 } from '@modelcontextprotocol/client';

import type { CallState } from '../callState.ts';
import type { Connection } from '../connection.ts';
import { toParleyError } from '../errors.ts';
import type { InputAnswerer } from '../inputAnswerer.ts';
import { checkInputRequests } from '../modernRounds.ts';
import { MAX_TIMEOUT_MS } from '../options.ts';
import type { RoundEvent, TaskHandle } from '../types.ts';
import type { CreatedTask } from './createdTasks.ts';
import { CallTaskHandle } from './taskHandle.ts';
import { listenForTask } from './taskNotices.ts';
import { readTask, snapshotOf, type ReadTask } from './taskShapes.ts';

/**
 * Driving a task from its creation to its end, so `callTool` can return the final result as
 * if the call had been synchronous.
 *
 * - 2026-07-28: listen for the task on a `subscriptions/listen` stream when the server follows
 *   it (`notifications/tasks`), polling `tasks/get` only now and then as a safety net;
 *   otherwise poll as often as the task's `pollIntervalMs` says. Answer each new
 *   question of an `input_required` task with the client's own handlers, sending each answer
 *   with `tasks/update` as soon as it is ready (the server takes partial answers); keys are
 *   answered once, however many polls show them.
 * - 2025-11-25: wait on `tasks/result`, on whose stream the server pushes its questions as
 *   real requests (answered by the handlers the client registered for pushed requests), and
 *   poll `tasks/get` meanwhile so the handle shows the status.
 *
 * A caller's cancel (its signal, or `task.cancel()`) becomes `tasks/cancel`; a handler that
 * fails or a round bound reached cancels the task too, since nobody will answer it any more.
 */

/** What driving a task needs from the call and the client. */
export interface TaskDriveContext {
  connection: Connection;
  state: CallState;
  answer: InputAnswerer;
  emit(event: RoundEvent): void;
  onTask: ((task: TaskHandle) => void) | undefined;
  /** The wait for each request of the task (not for the task as a whole). */
  timeoutMs: number;
}

/** Polled no faster than this, whatever the server says (a `0` would spin). */
export const MIN_POLL_INTERVAL_MS = 10;
/** When the server suggests no interval. */
export const DEFAULT_POLL_INTERVAL_MS = 1000;
/**
 * While the server tells of the task, a poll now and then still catches a notice that was
 * lost (or a stream that ended quietly).
 */
export const LISTENING_POLL_INTERVAL_MS = 5000;

/** Results are read by Parley itself (`readTask`); the SDK only hands them over. */
const ANY_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'parley',
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function intervalOf(task: ReadTask): number {
  return Math.max(MIN_POLL_INTERVAL_MS, task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
}

/** A pause that ends early when woken, and rejects when `signal` aborts. */
class Pauser {
  #wake: (() => void) | undefined;

  wake(): void {
    this.#wake?.();
  }

  pause(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#wake = undefined;
        resolve();
      };
      const onAbort = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        reject(signal.reason);
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/** Drive the task a `tools/call` was answered with to its final result. */
export function driveTask(
  created: CreatedTask,
  context: TaskDriveContext,
): Promise<Record<string, unknown>> {
  return created.era === 'modern'
    ? new ModernTaskDriver(created.task, context).run()
    : new LegacyTaskDriver(created.task, context).run();
}

abstract class TaskDriver {
  protected readonly context: TaskDriveContext;
  protected readonly handle: CallTaskHandle;
  protected readonly pauser = new Pauser();
  protected task: ReadTask;

  constructor(raw: Record<string, unknown>, context: TaskDriveContext) {
    this.context = context;
    this.task = readTask(raw, context.connection.era, undefined, 'created');
    this.handle = new CallTaskHandle(
      context.state.info,
      context.connection.era,
      snapshotOf(this.task),
      () => this.cancel(),
    );
    try {
      context.onTask?.(this.handle);
    } catch {
      // An observer must not change the outcome of what it observes.
    }
  }

  protected get taskId(): string {
    return this.task.taskId;
  }

  protected request(
    method: string,
    params: Record<string, unknown>,
    timeout = this.context.timeoutMs,
  ): Promise<Record<string, unknown>> {
    return this.context.connection.sdk.request({ method, params } as never, ANY_RESULT, {
      signal: this.context.state.signal,
      timeout,
    }) as Promise<Record<string, unknown>>;
  }

  protected async poll(): Promise<ReadTask> {
    const raw = await this.request('tasks/get', { taskId: this.taskId });
    this.see(readTask(raw, this.context.connection.era, this.taskId));
    return this.task;
  }

  protected see(task: ReadTask): void {
    this.task = task;
    this.handle.seen(snapshotOf(task));
  }

  /** `task.cancel()`: ask the server, then look again at once. */
  async cancel(): Promise<void> {
    if (isTerminalTaskStatus(this.task.status)) return;
    try {
      const answer = await this.context.connection.sdk.request(
        { method: 'tasks/cancel', params: { taskId: this.taskId } } as never,
        ANY_RESULT,
        { timeout: this.context.timeoutMs },
      );
      if (this.context.connection.era === 'handshake' && isRecord(answer) && 'status' in answer) {
        this.see(readTask(answer, 'handshake', this.taskId));
      }
    } catch (error) {
      // 2025-11-25 refuses to cancel a task that just ended: nothing left to cancel.
      if (!(error instanceof ProtocolError && error.code === JSON_RPC_ERROR_CODES.invalidParams)) {
        throw error;
      }
    } finally {
      this.pauser.wake();
    }
  }

  /** The call is over for the client while the task may run on: cancel it, quietly. */
  protected abandon(): void {
    if (isTerminalTaskStatus(this.task.status)) return;
    this.context.connection.sdk
      .request({ method: 'tasks/cancel', params: { taskId: this.taskId } } as never, ANY_RESULT, {
        timeout: this.context.timeoutMs,
      })
      .catch(() => {});
  }

  protected cancelledError(): TaskCancelledError {
    return new TaskCancelledError({
      taskId: this.taskId,
      ...(this.task.statusMessage !== undefined ? { statusMessage: this.task.statusMessage } : {}),
    });
  }

  abstract run(): Promise<Record<string, unknown>>;
}

class ModernTaskDriver extends TaskDriver {
  /** Keys answered (or being answered): each question is answered once. */
  readonly #seen = new Set<string>();
  /** Questions being answered now, to stop when the server withdraws one. */
  readonly #answering = new Map<string, AbortController>();
  /** Ends the stream that tells of the task, once the server agreed to follow it. */
  #stopListening: (() => void) | undefined;
  /** A notification brought the task since the loop last looked. */
  #heard = false;
  /** The server follows the task: a notification about it came on the stream. */
  #followed = false;

  async run(): Promise<Record<string, unknown>> {
    const { state } = this.context;
    let over = false;
    const listening = listenForTask(
      this.context.connection.sdk,
      this.taskId,
      (raw) => this.#hear(raw),
      state.signal,
    ).then((stop) => {
      if (over) stop?.();
      else this.#stopListening = stop;
    });
    try {
      // The task as created carries no result or error: one that ended at once is read first.
      if (isTerminalTaskStatus(this.task.status)) await this.poll();
      // Else the stream, if the server has one, opens before the first poll (a server without
      // one refuses at once; the acknowledgement is awaited 5 s at most).
      else await listening;
      for (;;) {
        const task = this.task;
        if (task.status === 'completed') return task.result ?? { content: [] };
        if (task.status === 'failed') {
          const error = task.error ?? { code: -32603, message: 'The task failed' };
          throw toParleyError(new ProtocolError(error.code, error.message, error.data));
        }
        if (task.status === 'cancelled') throw this.cancelledError();
        if (task.status === 'input_required') this.#answer(task.inputRequests ?? {});
        const interval = this.#followed
          ? Math.max(intervalOf(task), LISTENING_POLL_INTERVAL_MS)
          : intervalOf(task);
        if (!this.#heard) await this.pauser.pause(interval, state.signal);
        if (this.#heard) this.#heard = false;
        else await this.poll();
      }
    } catch (error) {
      if (!isTerminalTaskStatus(this.task.status)) this.abandon();
      throw error;
    } finally {
      over = true;
      this.#stopListening?.();
      for (const controller of this.#answering.values()) controller.abort();
    }
  }

  /** A `notifications/tasks` about this task: the task as it is now, without asking. */
  #hear(raw: Record<string, unknown>): void {
    let task: ReadTask;
    try {
      task = readTask(raw, 'modern', this.taskId);
    } catch {
      return; // a notice that is not a task: the next poll tells
    }
    this.see(task);
    this.#followed = true;
    this.#heard = true;
    this.pauser.wake();
  }

  /** A task that ended stays ended: a poll answered before a later notice cannot undo it. */
  protected override see(task: ReadTask): void {
    if (isTerminalTaskStatus(this.task.status) && !isTerminalTaskStatus(task.status)) return;
    super.see(task);
  }

  /** Start answering the questions not seen before, as one round; stop withdrawn ones. */
  #answer(requests: InputRequests): void {
    const { state } = this.context;
    for (const [key, controller] of this.#answering) {
      if (!Object.hasOwn(requests, key))
        controller.abort(new Error(`The server withdrew '${key}'.`));
    }
    const fresh = Object.entries(checkInputRequests(requests)).filter(
      ([key]) => !this.#seen.has(key),
    );
    if (fresh.length === 0) return;
    const asked = Object.fromEntries(fresh) as InputRequests;
    if (state.rounds >= state.maxRounds) {
      state.fail(
        new RoundsExceededError(`${state.info.method} '${state.info.name}'`, {
          maxRounds: state.maxRounds,
          lastResult: { resultType: 'input_required', inputRequests: asked },
        }),
      );
      return;
    }
    state.rounds += 1;
    const round = state.rounds;
    const answered: InputResponses = {};
    let left = fresh.length;
    for (const [key, request] of fresh) {
      this.#seen.add(key);
      const controller = new AbortController();
      const onAbort = (): void => controller.abort(state.signal.reason);
      state.signal.addEventListener('abort', onAbort, { once: true });
      this.#answering.set(key, controller);
      void this.#answerOne(key, request, round, controller.signal)
        .then((answer) => {
          if (answer === undefined) return;
          answered[key] = answer;
          left -= 1;
          if (left === 0) {
            this.context.emit({
              era: 'modern',
              call: state.info,
              round,
              maxRounds: state.maxRounds,
              asked,
              answered,
            });
          }
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted && !state.signal.aborted) return; // withdrawn
          state.fail(error);
        })
        .finally(() => {
          state.signal.removeEventListener('abort', onAbort);
          this.#answering.delete(key);
        });
    }
  }

  /** One answer, sent as soon as it is ready; `undefined` when the question was withdrawn. */
  async #answerOne(
    key: string,
    request: InputRequest,
    round: number,
    signal: AbortSignal,
  ): Promise<InputResponse | undefined> {
    const { state, connection } = this.context;
    const answer = await this.context.answer(request, {
      era: 'modern',
      protocolVersion: connection.protocolVersion,
      call: state.info,
      round,
      key,
      signal,
    });
    if (signal.aborted) return undefined;
    await this.request('tasks/update', { taskId: this.taskId, inputResponses: { [key]: answer } });
    return answer;
  }
}

class LegacyTaskDriver extends TaskDriver {
  async run(): Promise<Record<string, unknown>> {
    const { state } = this.context;
    // A task runs as long as it runs: the server is not timed while it does.
    const resume = state.hold();
    let settled = false;
    const payload = this.request('tasks/result', { taskId: this.taskId }, MAX_TIMEOUT_MS);
    payload.catch(() => {});
    const watching = (async () => {
      while (!settled) {
        try {
          await this.pauser.pause(intervalOf(this.task), state.signal);
          if (!settled) await this.poll();
        } catch {
          if (state.signal.aborted) return;
        }
      }
    })();
    try {
      const result = await payload;
      if (!Array.isArray(result.content)) {
        throw new ProtocolError(
          JSON_RPC_ERROR_CODES.internalError,
          `tasks/result for task ${this.taskId} did not return a tool result (no content).`,
        );
      }
      // The handle ends on the task's final status, as on 2026-07-28 (one tasks/get more).
      if (this.task.status !== 'completed') await this.poll().catch(() => undefined);
      return result;
    } catch (error) {
      if (state.signal.aborted) {
        this.abandon();
        throw error;
      }
      // What ended it: a cancel answers tasks/result with an error, but is its own outcome.
      const latest = await this.poll().catch(() => undefined);
      if (latest?.status === 'cancelled') throw this.cancelledError();
      throw toParleyError(error);
    } finally {
      settled = true;
      this.pauser.wake();
      await watching;
      resume();
    }
  }
}
