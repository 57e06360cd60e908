import { ParleyError, type InputRequests, type InputResponses } from '@parley/core';

import { randomUUID } from '../utils/randomness.ts';
import type { Clock } from './clock.ts';
import type { ReportFailure } from './taskEngineTypes.ts';
import type { TaskRecord } from './taskRecord.ts';
import type { TaskStore } from './taskStore.ts';
import { taskQuestionsFor } from './taskQuestions.ts';
import { takeAnswers, withInputs, withoutWaiter } from './taskTransitions.ts';

/**
 * A task's handler awaiting `io.ask`: its questions go on the task, and it resumes once none
 * of them is outstanding any more, whichever replica the answers came through, however long
 * that takes; only the task ending, the caller's signal or the question's own timeout ends the
 * wait sooner. Each wait is a {@link Waiter} on its local task, and the replica's view of a
 * task changing (`resume`) is what wakes it.
 */

/** One `io.ask` waiting for its answers. */
export interface Waiter {
  resolve(answers: InputResponses): void;
  /** Its questions are on the task: from now on, none outstanding means all answered. */
  posted: boolean;
  taking: boolean;
}

export interface TaskWaitersOptions {
  store: TaskStore;
  clock: Clock;
  report: ReportFailure;
  /** Act on the task as it is now (what a change seen through the store's watch does). */
  observe(taskId: string, record: TaskRecord | undefined): void;
}

export class TaskWaiters {
  readonly #store: TaskStore;
  readonly #clock: Clock;
  readonly #report: ReportFailure;
  readonly #observe: TaskWaitersOptions['observe'];

  constructor(options: TaskWaitersOptions) {
    this.#store = options.store;
    this.#clock = options.clock;
    this.#report = options.report;
    this.#observe = options.observe;
  }

  /** `io.ask` for the task `taskId`, whose waits are `waiters` and whose signal is `taskSignal`. */
  async ask(
    taskId: string,
    waiters: Map<string, Waiter>,
    taskSignal: AbortSignal,
    inputs: InputRequests,
    options: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<InputResponses> {
    taskSignal.throwIfAborted();
    options.signal?.throwIfAborted();
    const record = await this.#store.get(taskId);
    if (record === undefined) throw new ParleyError('internal', `Task ${taskId} no longer exists.`);
    const questions = taskQuestionsFor(record, inputs);
    if (questions.length === 0) return {};

    const waiterId = randomUUID();
    let resolve: (answers: InputResponses) => void = () => {};
    const answered = new Promise<InputResponses>((done) => (resolve = done));
    const waiter: Waiter = { resolve, posted: false, taking: false };
    waiters.set(waiterId, waiter);
    const cleanups: (() => void)[] = [() => waiters.delete(waiterId)];
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

  /** The task changed: take the answers of every posted wait none of whose questions is left. */
  resume(taskId: string, waiters: Map<string, Waiter>, record: TaskRecord): void {
    for (const [waiterId, waiter] of waiters) {
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
}
