import {
  JSON_RPC_ERROR_CODES,
  TaskCancelledError,
  isRecord,
  isTerminalTaskStatus,
} from '@parley/core';
import { ProtocolError, type StandardSchemaV1 } from '@modelcontextprotocol/client';

import type { CallState } from '../callState.ts';
import type { Connection } from '../connection.ts';
import type { InputAnswerer } from '../inputAnswerer.ts';
import type { RoundEvent, TaskHandle } from '../types.ts';
import { Pauser } from './pauser.ts';
import { CallTaskHandle } from './taskHandle.ts';
import { readTask, snapshotOf, type ReadTask } from './taskShapes.ts';

/**
 * What driving a task is in either era: the handle the caller sees, `tasks/get` to look at the
 * task, `tasks/cancel` for a caller's cancel or a call abandoned, and the error a cancelled task
 * ends the call with. Each era's driver adds only how it waits for the end.
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

/** Results are read by Parley itself (`readTask`); the SDK only hands them over. */
const ANY_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'parley',
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

/** The part of a task's driving both eras share; `run` is each era's own. */
export abstract class TaskDriver {
  protected readonly context: TaskDriveContext;
  protected readonly handle: CallTaskHandle;
  protected readonly pauser: Pauser = new Pauser();
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
    timeout: number = this.context.timeoutMs,
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
