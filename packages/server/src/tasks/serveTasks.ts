import {
  ASK_KEY_META,
  InvalidInputResponsesError,
  declaresTasksExtension,
  jsonRpcError,
  toJsonRpcError,
  type ClientCapabilities,
  type InputRequest,
  type InputResponse,
  type JsonRpcErrorObject,
} from '@parley/core';

import type { RoundReply } from '../round/request.ts';
import {
  alreadyEnded,
  handshakeListResult,
  handshakeTaskPayload,
  handshakeTaskOf,
  relatedTaskMeta,
} from './handshakeWire.ts';
import {
  getTaskResult,
  isTaskMethod,
  missingTasksExtension,
  readTaskParams,
  taskAck,
  unknownTask,
} from './modernWire.ts';
import type { TaskEngine } from './taskEngine.ts';
import type { TaskAccess } from './taskEngineTypes.ts';
import { isFinished, type TaskRecord } from './taskRecord.ts';

/**
 * The task methods, served over a {@link TaskEngine}: what a transport calls once it has the
 * method, its params and the facts of the request. Any replica serves any task; the engine and
 * its store make that hold.
 */

function error(problem: JsonRpcErrorObject): RoundReply {
  return { kind: 'error', error: problem };
}

function result(value: object): RoundReply {
  return { kind: 'result', result: value as Record<string, unknown> };
}

/** What the request says about who asks and what it declared (2026-07-28). */
export interface ModernTaskFacts {
  clientCapabilities: ClientCapabilities;
  principal?: string | undefined;
}

function accessOf(facts: {
  principal?: string | undefined;
  sessionId?: string | undefined;
}): TaskAccess {
  return {
    ...(facts.principal !== undefined ? { principal: facts.principal } : {}),
    ...(facts.sessionId !== undefined ? { sessionId: facts.sessionId } : {}),
  };
}

/**
 * 2026-07-28: `tasks/get`, `tasks/update`, `tasks/cancel`, for clients that declared the
 * extension on the request (`-32021` otherwise). `undefined` for any other method (the removed
 * `tasks/result` and `tasks/list` included), which the caller answers `-32601`.
 */
export async function serveModernTaskMethod(
  engine: TaskEngine,
  method: string,
  params: Record<string, unknown>,
  facts: ModernTaskFacts,
): Promise<RoundReply | undefined> {
  if (!isTaskMethod(method)) return undefined;
  if (!declaresTasksExtension(facts.clientCapabilities))
    return error(missingTasksExtension(method));
  const read = readTaskParams(method, params);
  if ('problem' in read) return error(read.problem);
  const access = accessOf(facts);
  switch (method) {
    case 'tasks/get': {
      const record = await engine.get(read.taskId, access);
      return record === undefined
        ? error(unknownTask(method, read.taskId))
        : result(getTaskResult(record));
    }
    case 'tasks/update': {
      try {
        const report = await engine.update(read.taskId, access, read.inputResponses);
        return report === undefined ? error(unknownTask(method, read.taskId)) : result(taskAck());
      } catch (failure) {
        if (failure instanceof InvalidInputResponsesError) return error(toJsonRpcError(failure));
        throw failure;
      }
    }
    case 'tasks/cancel': {
      const outcome = await engine.cancel(read.taskId, access);
      // Cancelling an ended task is acknowledged like any other (idempotent): only an unknown
      // task is an error.
      return outcome === 'unknown' ? error(unknownTask(method, read.taskId)) : result(taskAck());
    }
  }
}

/** What the session says about who asks (2025-11-25). */
export interface HandshakeTaskFacts {
  principal?: string | undefined;
  sessionId?: string | undefined;
}

/**
 * Push one of a task's questions to the client as a real request on the `tasks/result`
 * stream (tagged with `_meta`, the related-task key), and resolve with the client's answer.
 */
export type PushQuestion = (
  request: InputRequest,
  meta: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<unknown>;

const HANDSHAKE_METHODS: ReadonlySet<string> = new Set([
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/cancel',
]);

/**
 * 2025-11-25: `tasks/get`, `tasks/cancel`, `tasks/list` and `tasks/result` (which waits for the
 * end, pushing the task's questions meanwhile through `push`). `undefined` for any other method.
 */
export async function serveHandshakeTaskMethod(
  engine: TaskEngine,
  method: string,
  params: Record<string, unknown>,
  facts: HandshakeTaskFacts,
  options: { push?: PushQuestion; signal: AbortSignal },
): Promise<RoundReply | undefined> {
  if (!HANDSHAKE_METHODS.has(method)) return undefined;
  const access = accessOf(facts);
  if (method === 'tasks/list') {
    const { cursor } = params;
    if (cursor !== undefined && typeof cursor !== 'string') {
      return error(
        jsonRpcError('invalidParams', 'Invalid params: tasks/list cursor must be a string'),
      );
    }
    try {
      const page = await engine.list(access, cursor === undefined ? {} : { cursor });
      return result(handshakeListResult(page.tasks, page.nextCursor));
    } catch (failure) {
      if (failure instanceof TypeError)
        return error(jsonRpcError('invalidParams', `Invalid params: ${failure.message}`));
      throw failure;
    }
  }
  const read = readTaskParams(method as 'tasks/get', params);
  if ('problem' in read) return error(read.problem);
  const { taskId } = read;
  switch (method) {
    case 'tasks/get': {
      const record = await engine.get(taskId, access);
      return record === undefined
        ? error(unknownTask('tasks/get', taskId))
        : result(handshakeTaskOf(record));
    }
    case 'tasks/cancel': {
      const before = await engine.get(taskId, access);
      if (before === undefined) return error(unknownTask('tasks/cancel', taskId));
      if (isFinished(before)) return error(alreadyEnded(before));
      await engine.cancel(taskId, access);
      const after = await engine.get(taskId, access);
      return after === undefined
        ? error(unknownTask('tasks/cancel', taskId))
        : result(handshakeTaskOf(after));
    }
    default: {
      let ended: TaskRecord | undefined;
      try {
        ended = await awaitWithQuestions(engine, taskId, access, options);
      } catch (failure) {
        const why = failure instanceof Error ? failure.message : String(failure);
        return error(
          jsonRpcError(
            'internalError',
            `tasks/result for task ${taskId} stopped: ${options.signal.aborted ? 'the request was cancelled' : `a question of the task got no answer (${why}); it is still asked, call tasks/result again`}`,
          ),
        );
      }
      if (ended === undefined) return error(unknownTask('tasks/result', taskId));
      const payload = handshakeTaskPayload(ended);
      return payload.kind === 'result' ? result(payload.result) : error(payload.error);
    }
  }
}

/**
 * Wait until the task ends; each question it asks meanwhile is pushed to the client once (on
 * this stream) and the answer delivered to the task, which any replica's handler then takes.
 */
async function awaitWithQuestions(
  engine: TaskEngine,
  taskId: string,
  access: TaskAccess,
  options: { push?: PushQuestion; signal: AbortSignal },
): Promise<TaskRecord | undefined> {
  const pushed = new Set<string>();
  const failures: unknown[] = [];
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(options.signal.reason);
  options.signal.addEventListener('abort', onAbort, { once: true });
  const pushNew = (record: TaskRecord | undefined): void => {
    if (record === undefined || options.push === undefined) return;
    for (const [key, pending] of Object.entries(record.inputRequests)) {
      if (pushed.has(key)) continue;
      pushed.add(key);
      void options
        // The question's key on the task, so the client can tell which ask it is.
        .push(pending.request, { ...relatedTaskMeta(taskId), [ASK_KEY_META]: key }, stop.signal)
        .then((answer) => engine.update(taskId, access, { [key]: answer as InputResponse }))
        .catch((failure: unknown) => {
          if (!stop.signal.aborted) failures.push(failure);
          stop.abort(failure);
        });
    }
  };
  const unwatch = engine.watch(taskId, pushNew);
  try {
    pushNew(await engine.get(taskId, access));
    const ended = await engine.finished(taskId, access, stop.signal);
    return ended;
  } catch (failure) {
    throw failures[0] ?? failure;
  } finally {
    unwatch();
    stop.abort();
    options.signal.removeEventListener('abort', onAbort);
  }
}
