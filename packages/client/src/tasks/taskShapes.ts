import {
  isRecord,
  isTaskStatus,
  type Era,
  type InputRequests,
  type JsonRpcErrorObject,
  type TaskStatus,
} from '@parley/core';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

import type { TaskSnapshot } from '../types.ts';

/**
 * Tasks as the server sends them, checked and read into one shape whatever the era: a
 * malformed task is the server's error, named as such, never a crash further on.
 */

/** A task as read from `tasks/get` (or from the result that created it). */
export interface ReadTask extends TaskSnapshot {
  /** 2026-07-28 `input_required`: the outstanding questions. */
  inputRequests?: InputRequests;
  /** `completed` (2026-07-28): the tool's result. */
  result?: Record<string, unknown>;
  /** `failed` (2026-07-28): the JSON-RPC error. */
  error?: JsonRpcErrorObject;
}

function invalid(taskId: string | undefined, reason: string): SdkError {
  return new SdkError(
    SdkErrorCode.InvalidResult,
    `Invalid task${taskId === undefined ? '' : ` ${taskId}`} from the server: ${reason}.`,
  );
}

/**
 * Read a task the server sent in `era`'s words; `expectedId` is the task asked about, if any.
 * A task as created (`shape: 'created'`) carries no questions, result or error; one from
 * `tasks/get` carries what its status needs.
 *
 * @throws {SdkError} `InvalidResult` naming what is wrong with it.
 */
export function readTask(
  value: unknown,
  era: Era,
  expectedId?: string,
  shape: 'created' | 'detailed' = 'detailed',
): ReadTask {
  if (!isRecord(value)) throw invalid(expectedId, 'not an object');
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt } = value;
  if (typeof taskId !== 'string' || taskId.length === 0) throw invalid(expectedId, 'no taskId');
  if (expectedId !== undefined && taskId !== expectedId) {
    throw invalid(expectedId, `it answered about task ${JSON.stringify(taskId)}`);
  }
  if (!isTaskStatus(status)) throw invalid(taskId, `unknown status ${JSON.stringify(status)}`);
  const ttl = era === 'modern' ? value.ttlMs : value.ttl;
  const poll = era === 'modern' ? value.pollIntervalMs : value.pollInterval;
  if (ttl !== null && ttl !== undefined && typeof ttl !== 'number') {
    throw invalid(taskId, `${era === 'modern' ? 'ttlMs' : 'ttl'} is not a number`);
  }
  if (poll !== undefined && (typeof poll !== 'number' || !(poll >= 0))) {
    throw invalid(
      taskId,
      `${era === 'modern' ? 'pollIntervalMs' : 'pollInterval'} is not a number`,
    );
  }
  const task: ReadTask = {
    taskId,
    status: status as TaskStatus,
    ...(typeof statusMessage === 'string' ? { statusMessage } : {}),
    createdAt: typeof createdAt === 'string' ? createdAt : '',
    lastUpdatedAt: typeof lastUpdatedAt === 'string' ? lastUpdatedAt : '',
    ttlMs: typeof ttl === 'number' ? ttl : null,
    ...(typeof poll === 'number' ? { pollIntervalMs: poll } : {}),
  };
  if (era !== 'modern' || shape === 'created') return task;
  switch (task.status) {
    case 'input_required':
      if (value.inputRequests !== undefined && !isRecord(value.inputRequests)) {
        throw invalid(taskId, 'inputRequests is not an object');
      }
      return { ...task, inputRequests: (value.inputRequests ?? {}) as InputRequests };
    case 'completed':
      if (!isRecord(value.result) || !Array.isArray(value.result.content)) {
        throw invalid(taskId, 'a completed task needs its result (with content)');
      }
      return { ...task, result: value.result };
    case 'failed': {
      const error = value.error;
      if (!isRecord(error) || typeof error.code !== 'number' || typeof error.message !== 'string') {
        throw invalid(taskId, 'a failed task needs its error ({ code, message })');
      }
      return { ...task, error: error as unknown as JsonRpcErrorObject };
    }
    default:
      return task;
  }
}

/** The snapshot part of a read task (what a handle shows). */
export function snapshotOf(task: ReadTask): TaskSnapshot {
  const { inputRequests: _i, result: _r, error: _e, ...snapshot } = task;
  return snapshot;
}
