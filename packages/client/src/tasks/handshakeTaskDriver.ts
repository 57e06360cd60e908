import { JSON_RPC_ERROR_CODES } from '@parley/core';
import { ProtocolError } from '@modelcontextprotocol/client';

import { toParleyError } from '../errors.ts';
import { MAX_TIMEOUT_MS } from '../options.ts';
import { intervalOf } from './pollIntervals.ts';
import { TaskDriver } from './taskDriver.ts';

/**
 * Driving a 2025-11-25 task: wait on `tasks/result`, on whose stream the server pushes its
 * questions as real requests (answered by the handlers the client registered for pushed
 * requests), and poll `tasks/get` meanwhile so the handle shows the status.
 */

export class HandshakeTaskDriver extends TaskDriver {
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
