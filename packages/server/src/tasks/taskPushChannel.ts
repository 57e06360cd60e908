import type { InputRequest, InputResponse, ListRootsResult } from '@parley/core';

import type { PushChannel, PushOptions } from '../handler/pushChannel.ts';
import type { TaskIO } from './taskEngineTypes.ts';

/**
 * Inside a task, the handler's questions are real awaits in both eras: this channel has the
 * shape of the handshake era's server-initiated requests (what `ctx.elicit`, `ctx.sample`,
 * `ctx.listRoots` and `ctx.ask` push through), but each request goes on the task as an
 * `inputRequests` entry and resolves when its answer comes back with `tasks/update` (or, on
 * 2025-11-25, as the response to the request pushed on the `tasks/result` stream). So the
 * Context keeps doing what it does for pushed requests (typed answers, re-asks with the
 * reason, decline and cancel as results) with no task-specific code.
 */

/** What a task channel needs beyond the task's own I/O. */
export interface TaskPushChannelOptions {
  /**
   * 2025-11-25 only: tell the client a URL elicitation finished
   * (`notifications/elicitation/complete`). The modern protocol has no such notice: there the
   * client learns it from the task's next status, and completing is a no-op.
   */
  completeElicitation?: (elicitationId: string) => Promise<void>;
}

/** A push channel whose requests are questions on the task. */
export function taskPushChannel(io: TaskIO, options: TaskPushChannelOptions = {}): PushChannel {
  // Each question goes on the task under its ask's key (`nextKey` makes it unique on the task).
  const ask = async (request: InputRequest, { key: name, timeout, signal }: PushOptions) => {
    const answers = await io.ask({ [name]: request }, { timeoutMs: timeout, signal });
    const answer = answers[name];
    if (answer === undefined) {
      // Only an optional ask the client cannot answer comes back empty; pushed asks never are.
      throw new TypeError(`The task's question '${name}' came back without an answer.`);
    }
    return answer as InputResponse;
  };
  return {
    elicit: (params, wait) => ask({ method: 'elicitation/create', params }, wait),
    sample: async (params, wait) =>
      (await ask({ method: 'sampling/createMessage', params }, wait)) as never,
    listRoots: async (wait) =>
      ((await ask({ method: 'roots/list', params: {} }, wait)) as ListRootsResult).roots,
    completeElicitation: (elicitationId) =>
      options.completeElicitation?.(elicitationId) ?? Promise.resolve(),
  };
}
