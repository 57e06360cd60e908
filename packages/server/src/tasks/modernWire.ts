import {
  RELATED_TASK_META_KEY,
  TASKS_EXTENSION,
  declaresTasksExtension,
  jsonRpcError,
  tasksRequiredCapabilities,
  type ClientCapabilities,
  type CreateTaskResult,
  type DetailedTask,
  type InputRequests,
  type JsonRpcErrorObject,
  type Task,
} from '@parley/core';

import { statusMessageOf, type TaskRecord } from './taskRecord.ts';
import type { TaskSupport } from '../handler/taskOptions.ts';

/**
 * The tasks extension (2026-07-28, SEP-2663) on the wire, as pure functions of a task record:
 * the flat `CreateTaskResult`, the `DetailedTask` of `tasks/get` and `notifications/tasks`,
 * the empty acknowledgements, the gate on the declared extension, and the params of the three
 * task methods.
 */

/** The three methods of the extension. */
export type TaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel';

export const TASK_METHODS: readonly TaskMethod[] = Object.freeze([
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
]);

/** True for `tasks/get`, `tasks/update` and `tasks/cancel`. */
export function isTaskMethod(method: string): method is TaskMethod {
  return (TASK_METHODS as readonly string[]).includes(method);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The task's metadata, as every task shape of the extension carries it. */
export function taskOf(record: TaskRecord): Task {
  const statusMessage = statusMessageOf(record);
  return {
    taskId: record.taskId,
    status: record.status,
    ...(statusMessage !== undefined ? { statusMessage } : {}),
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
}

/** The answer to the `tools/call` that created the task: the task itself, flat. */
export function createTaskResult(record: TaskRecord): CreateTaskResult {
  return { resultType: 'task', ...taskOf(record) };
}

/** The outstanding questions, as the client sees them. */
export function inputRequestsOf(record: TaskRecord): InputRequests {
  const requests: InputRequests = {};
  for (const [key, pending] of Object.entries(record.inputRequests))
    requests[key] = pending.request;
  return requests;
}

/**
 * The final result as `tasks/get` inlines it: what the call would have returned, without the
 * 2025-11-25 related-task key (the task id is at the root already).
 */
function inlinedResult(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result._meta;
  if (typeof meta !== 'object' || meta === null || !(RELATED_TASK_META_KEY in meta)) return result;
  const { [RELATED_TASK_META_KEY]: _related, ...rest } = meta as Record<string, unknown>;
  const { _meta: _dropped, ...withoutMeta } = result;
  return Object.keys(rest).length === 0 ? withoutMeta : { ...withoutMeta, _meta: rest };
}

/** The task with what its status carries: questions, result, or error. */
export function detailedTaskOf(record: TaskRecord): DetailedTask {
  const task = taskOf(record);
  switch (record.status) {
    case 'input_required':
      return { ...task, status: 'input_required', inputRequests: inputRequestsOf(record) };
    case 'completed':
      return {
        ...task,
        status: 'completed',
        result: inlinedResult(record.result ?? { content: [] }),
      };
    case 'failed':
      return {
        ...task,
        status: 'failed',
        error: record.error ?? jsonRpcError('internalError', 'Internal error'),
      };
    case 'working':
      return { ...task, status: 'working' };
    case 'cancelled':
      return { ...task, status: 'cancelled' };
  }
}

/** The result of `tasks/get`. */
export function getTaskResult(record: TaskRecord): DetailedTask & { resultType: 'complete' } {
  return { resultType: 'complete', ...detailedTaskOf(record) };
}

/** `notifications/tasks`: the same task `tasks/get` would return now. */
export function taskNotification(record: TaskRecord): {
  method: 'notifications/tasks';
  params: DetailedTask;
} {
  return { method: 'notifications/tasks', params: detailedTaskOf(record) };
}

/** The empty acknowledgement of `tasks/update` and `tasks/cancel`. */
export function taskAck(): { resultType: 'complete' } {
  return { resultType: 'complete' };
}

/** `-32021`: the request needs the tasks extension, which the client did not declare on it. */
export function missingTasksExtension(subject: string): JsonRpcErrorObject {
  return jsonRpcError(
    'missingRequiredClientCapability',
    `${subject} requires the ${TASKS_EXTENSION} extension, which this request did not declare in its client capabilities`,
    { requiredCapabilities: tasksRequiredCapabilities() },
  );
}

/** `-32602` for a task id this server does not know (or no longer keeps, or not for this caller). */
export function unknownTask(
  method: TaskMethod | 'tasks/result',
  taskId: string,
): JsonRpcErrorObject {
  const verb =
    method === 'tasks/get' || method === 'tasks/result'
      ? 'retrieve'
      : method === 'tasks/update'
        ? 'update'
        : 'cancel';
  return jsonRpcError(
    'invalidParams',
    `Failed to ${verb} task: no task ${JSON.stringify(taskId)} (it never existed, expired, or belongs to someone else)`,
  );
}

/** What the params of a task method hold, once checked. */
export type TaskParams =
  { taskId: string; inputResponses?: unknown } | { problem: JsonRpcErrorObject };

/** A task method's (or a task request's) params that do not hold, as the problem to answer. */
export function invalidParams(message: string): { problem: JsonRpcErrorObject } {
  return { problem: jsonRpcError('invalidParams', `Invalid params: ${message}`) };
}

/** The task id (and, for `tasks/update`, the answers) of a task method's params. */
export function readTaskParams(
  method: TaskMethod | 'tasks/result',
  params: Record<string, unknown>,
): TaskParams {
  const { taskId } = params;
  if (typeof taskId !== 'string' || taskId.length === 0) {
    return invalidParams(`${method} needs params.taskId (a non-empty string)`);
  }
  if (method !== 'tasks/update') return { taskId };
  if (!('inputResponses' in params))
    return invalidParams('tasks/update needs params.inputResponses');
  return { taskId, inputResponses: params.inputResponses };
}

/** What a `tools/call` of a tool with task support becomes. */
export type TaskDecision =
  { kind: 'task' } | { kind: 'sync' } | { kind: 'refuse'; error: JsonRpcErrorObject };

/**
 * Modern era: a task for every client that declared the extension on this request (the
 * server decides; no per-request hint exists), a plain call for the others, unless the tool
 * can only run as a task: then `-32021` naming the extension.
 */
export function decideModernTask(
  tool: string,
  support: TaskSupport | undefined,
  capabilities: ClientCapabilities,
): TaskDecision {
  if (support === undefined) return { kind: 'sync' };
  if (declaresTasksExtension(capabilities)) return { kind: 'task' };
  if (support === 'optional') return { kind: 'sync' };
  return {
    kind: 'refuse',
    error: missingTasksExtension(`Tool '${tool}' (it runs only as a task)`),
  };
}

/** The server's advertisement of the extension, for `server/discover`'s capabilities. */
export function tasksExtensionCapability(): { extensions: Record<string, object> } {
  return { extensions: { [TASKS_EXTENSION]: {} } };
}
