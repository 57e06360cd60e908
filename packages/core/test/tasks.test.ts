import { describe, expect, test } from 'vitest';

import {
  TASKS_EXTENSION,
  TASK_STATUSES,
  TaskCancelledError,
  declaresTasksExtension,
  isCreateTaskResult,
  isHandshakeCreateTaskResult,
  isTaskStatus,
  isTerminalTaskStatus,
  tasksRequiredCapabilities,
  toJsonRpcError,
} from '../src/index.ts';

describe('the tasks vocabulary', () => {
  test('the extension identifier is the spec one', () => {
    expect(TASKS_EXTENSION).toBe('io.modelcontextprotocol/tasks');
    expect(tasksRequiredCapabilities()).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
  });

  test('only completed, failed and cancelled are terminal', () => {
    expect(TASK_STATUSES.filter(isTerminalTaskStatus)).toEqual([
      'completed',
      'failed',
      'cancelled',
    ]);
    expect(isTerminalTaskStatus('working')).toBe(false);
    expect(isTerminalTaskStatus('done')).toBe(false);
    expect(isTaskStatus('input_required')).toBe(true);
    expect(isTaskStatus('paused')).toBe(false);
    expect(isTaskStatus(undefined)).toBe(false);
  });

  test('the extension counts as declared only under extensions, as an object', () => {
    expect(declaresTasksExtension({ extensions: { [TASKS_EXTENSION]: {} } })).toBe(true);
    expect(declaresTasksExtension({ extensions: { [TASKS_EXTENSION]: { x: 1 } } })).toBe(true);
    expect(declaresTasksExtension(undefined)).toBe(false);
    expect(declaresTasksExtension({})).toBe(false);
    // The 2025-11-25 capability is not the extension (SEP-2663, backward compatibility).
    expect(declaresTasksExtension({ tasks: { requests: { tools: { call: {} } } } })).toBe(false);
    expect(declaresTasksExtension({ extensions: { [TASKS_EXTENSION]: true as never } })).toBe(
      false,
    );
    expect(declaresTasksExtension({ extensions: { 'io.example/other': {} } })).toBe(false);
  });

  test('a created task is recognised in each era by its own shape', () => {
    const flat = { resultType: 'task', taskId: 't1', status: 'working' };
    expect(isCreateTaskResult(flat)).toBe(true);
    expect(isCreateTaskResult({ resultType: 'complete', content: [] })).toBe(false);
    expect(isCreateTaskResult({ resultType: 'task' })).toBe(false);
    expect(isHandshakeCreateTaskResult({ task: { taskId: 't1', status: 'working' } })).toBe(true);
    expect(isHandshakeCreateTaskResult({ task: { taskId: 't1', status: 'asleep' } })).toBe(false);
    expect(isHandshakeCreateTaskResult(flat)).toBe(false);
    expect(isHandshakeCreateTaskResult(null)).toBe(false);
  });
});

describe('TaskCancelledError', () => {
  test('names the task and the reason the server gave', () => {
    const error = new TaskCancelledError({ taskId: 't1', statusMessage: 'Cancelled by request' });
    expect(error).toBeInstanceOf(TaskCancelledError);
    expect(error.code).toBe('task_cancelled');
    expect(error.message).toBe('Task t1 was cancelled: Cancelled by request.');
    expect(new TaskCancelledError({ taskId: 't2' }).message).toBe('Task t2 was cancelled.');
    expect(toJsonRpcError(error)).toEqual({ code: -32603, message: error.message });
  });
});
