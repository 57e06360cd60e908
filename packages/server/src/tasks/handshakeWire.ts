import {
  RELATED_TASK_META_KEY,
  jsonRpcError,
  type JsonRpcErrorObject,
  type HandshakeTask,
  type HandshakeTaskRequest,
  type Meta,
} from '@parley/core';

import type { TaskRecord } from './taskRecord.ts';
import type { TaskSupport } from '../handler/taskOptions.ts';
import { invalidParams, taskOf, type TaskDecision } from './modernWire.ts';

/**
 * Tasks as the 2025-11-25 core spec has them, as pure functions of a task record: the client
 * asks with `params.task`, the task comes back wrapped (`{ task }`) with `ttl` and
 * `pollInterval`, `tasks/result` returns what the call would have returned with the
 * related-task metadata, `tasks/cancel` returns the task, and `tasks/list` pages through the
 * caller's tasks. Questions travel as real requests tagged with the related-task metadata.
 */

/** `_meta` that ties a message to its task. */
export function relatedTaskMeta(taskId: string): Meta {
  return { [RELATED_TASK_META_KEY]: { taskId } };
}

/**
 * The task in 2025-11-25's words (the modern task's, its TTL and poll interval unsuffixed): also
 * the result of `tasks/get` and `tasks/cancel`, the task's fields flat.
 */
export function handshakeTaskOf(record: TaskRecord): HandshakeTask {
  const { ttlMs, pollIntervalMs: _, ...task } = taskOf(record);
  return { ...task, ttl: ttlMs, pollInterval: record.pollIntervalMs };
}

/** The answer to the `tools/call` that created the task. */
export function handshakeCreateTaskResult(record: TaskRecord): { task: HandshakeTask } {
  return { task: handshakeTaskOf(record) };
}

/** The result of `tasks/list`. */
export function handshakeListResult(
  records: readonly TaskRecord[],
  nextCursor: string | undefined,
): { tasks: HandshakeTask[]; nextCursor?: string } {
  return {
    tasks: records.map(handshakeTaskOf),
    ...(nextCursor !== undefined ? { nextCursor } : {}),
  };
}

/** `notifications/tasks/status`. */
export function handshakeStatusNotification(record: TaskRecord): {
  method: 'notifications/tasks/status';
  params: HandshakeTask;
} {
  return { method: 'notifications/tasks/status', params: handshakeTaskOf(record) };
}

/**
 * What `tasks/result` answers for an ended task: exactly what the call would have returned
 * (its result with the related-task metadata, or its JSON-RPC error); a cancelled task, which
 * returned nothing, answers with an error saying so.
 */
export function handshakeTaskPayload(
  record: TaskRecord,
):
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'error'; error: JsonRpcErrorObject } {
  switch (record.status) {
    case 'completed': {
      const result = record.result ?? { content: [] };
      const meta = (result._meta ?? {}) as Meta;
      return {
        kind: 'result',
        result: { ...result, _meta: { ...meta, ...relatedTaskMeta(record.taskId) } },
      };
    }
    case 'failed':
      return {
        kind: 'error',
        error: record.error ?? jsonRpcError('internalError', 'Internal error'),
      };
    case 'cancelled':
      return {
        kind: 'error',
        error: jsonRpcError(
          'internalError',
          `Task ${record.taskId} was cancelled before it returned a result`,
          { taskId: record.taskId, status: 'cancelled' },
        ),
      };
    default:
      throw new TypeError(
        `handshakeTaskPayload: task ${record.taskId} has not ended (${record.status}).`,
      );
  }
}

/** `-32602` for cancelling a task that already ended (2025-11-25 refuses it). */
export function alreadyEnded(record: TaskRecord): JsonRpcErrorObject {
  return jsonRpcError(
    'invalidParams',
    `Cannot cancel task ${record.taskId}: it already ended (${record.status})`,
  );
}

/** What `params.task` asks for, once checked. */
export type HandshakeTaskParam =
  { requested: false } | { requested: true; ttl?: number } | { problem: JsonRpcErrorObject };

/** Read `params.task` of a 2025-11-25 `tools/call`. */
export function readHandshakeTaskParam(value: unknown): HandshakeTaskParam {
  if (value === undefined) return { requested: false };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalidParams('params.task must be an object ({ ttl? })');
  }
  const { ttl } = value as HandshakeTaskRequest;
  if (ttl === undefined) return { requested: true };
  if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl <= 0) {
    return invalidParams(
      `params.task.ttl must be a positive whole number of milliseconds (got ${JSON.stringify(ttl)})`,
    );
  }
  return { requested: true, ttl };
}

/**
 * The TTL a 2025-11-25 task gets: what the client asked for, never more than the tool allows
 * (the receiver MAY override the request).
 */
export function handshakeTtl(
  requested: number | undefined,
  configured: number | null,
): number | null {
  if (requested === undefined) return configured;
  return configured === null ? requested : Math.min(requested, configured);
}

/**
 * 2025-11-25: the client asks for a task with `params.task`. A tool without task support
 * refuses one (`-32601`, as the spec says servers should), and a tool that runs only as a task
 * refuses a plain call (`-32601`, as the spec says servers must).
 */
export function decideHandshakeTask(
  tool: string,
  support: TaskSupport | undefined,
  requested: boolean,
): TaskDecision {
  if (requested) {
    if (support !== undefined) return { kind: 'task' };
    return {
      kind: 'refuse',
      error: jsonRpcError(
        'methodNotFound',
        `Tool '${tool}' does not run as a task (its execution.taskSupport is forbidden); call it without params.task`,
      ),
    };
  }
  if (support !== 'required') return { kind: 'sync' };
  return {
    kind: 'refuse',
    error: jsonRpcError(
      'methodNotFound',
      `Tool '${tool}' runs only as a task (execution.taskSupport: required); call it with params.task`,
    ),
  };
}

/** What a 2025-11-25 server declares when any of its tools runs as a task. */
export function handshakeTasksCapability(): {
  list: Record<string, never>;
  cancel: Record<string, never>;
  requests: { tools: { call: Record<string, never> } };
} {
  return { list: {}, cancel: {}, requests: { tools: { call: {} } } };
}

/** A tool's `execution` in a 2025-11-25 `tools/list`. */
export function handshakeToolExecution(support: TaskSupport | undefined): {
  taskSupport: 'forbidden' | TaskSupport;
} {
  return { taskSupport: support ?? 'forbidden' };
}
