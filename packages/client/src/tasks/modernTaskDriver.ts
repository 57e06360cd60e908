import {
  isTerminalTaskStatus,
  jsonRpcError,
  type InputRequest,
  type InputRequests,
  type InputResponse,
  type InputResponses,
} from '@parley/core';
import { ProtocolError } from '@modelcontextprotocol/client';

import { toParleyError } from '../errors.ts';
import { checkInputRequests } from '../modernRounds.ts';
import { intervalOf, LISTENING_POLL_INTERVAL_MS } from './pollIntervals.ts';
import { TaskDriver } from './taskDriver.ts';
import { listenForTask } from './taskNotices.ts';
import { readTask, type ReadTask } from './taskShapes.ts';

/**
 * Driving a 2026-07-28 task: listen for it on a `subscriptions/listen` stream when the server
 * follows it (`notifications/tasks`), polling `tasks/get` only now and then as a safety net;
 * otherwise poll as often as the task's `pollIntervalMs` says. Each new question of an
 * `input_required` task is answered with the client's own handlers, each answer sent with
 * `tasks/update` as soon as it is ready (the server takes partial answers); keys are answered
 * once, however many polls show them.
 */

export class ModernTaskDriver extends TaskDriver {
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
          const error = task.error ?? jsonRpcError('internalError', 'The task failed');
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
      state.fail(state.roundsExceeded({ resultType: 'input_required', inputRequests: asked }));
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
