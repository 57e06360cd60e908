import { RELATED_TASK_META_KEY } from '@parley/core';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { elicitRequest } from '../../src/ask/builders.ts';
import { askedEntryOf } from '../../src/ask/asked.ts';
import {
  alreadyEnded,
  decideHandshakeTask,
  handshakeCreateTaskResult,
  handshakeListResult,
  handshakeStatusNotification,
  handshakeTaskPayload,
  handshakeTaskOf,
  handshakeToolExecution,
  handshakeTasksCapability,
  handshakeTtl,
  readHandshakeTaskParam,
  relatedTaskMeta,
} from '../../src/tasks/handshakeWire.ts';
import {
  createTaskResult,
  decideModernTask,
  getTaskResult,
  isTaskMethod,
  missingTasksExtension,
  readTaskParams,
  taskAck,
  taskNotification,
  tasksExtensionCapability,
  unknownTask,
} from '../../src/tasks/modernWire.ts';
import { resolveTaskOptions } from '../../src/handler/taskOptions.ts';
import { statusMessageOf, type TaskRecord } from '../../src/tasks/taskRecord.ts';
import {
  newTaskRecord,
  withInputs,
  withOutcome,
  withProgress,
} from '../../src/tasks/taskTransitions.ts';

/** The protocol shapes, as pure functions of task records: both eras, every status. */

const T0 = Date.UTC(2026, 7, 1, 9, 0, 0);
const EXT = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    ...newTaskRecord({
      taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
      scope: {
        tool: 'deploy',
        era: 'modern',
        protocolVersion: '2026-07-28',
        clientCapabilities: EXT,
      },
      now: T0,
      ttlMs: 3_600_000,
      pollIntervalMs: 5000,
      owner: 'a',
      leaseMs: 30_000,
    }),
    ...overrides,
  };
}

const question = elicitRequest('Please enter your name.', z.object({ name: z.string() }));

function asking(): TaskRecord {
  return withInputs(
    record(),
    [{ name: 'name', request: question, asked: askedEntryOf(question), waiter: 'w' }],
    T0 + 1000,
  )!.record;
}

describe('2026-07-28: the extension', () => {
  test('CreateTaskResult is flat: the task at the top, ISO times, whole-ms ttl and poll interval', () => {
    const created = createTaskResult(record());
    expect(created).toEqual({
      resultType: 'task',
      taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
      status: 'working',
      createdAt: '2026-08-01T09:00:00.000Z',
      lastUpdatedAt: '2026-08-01T09:00:00.000Z',
      ttlMs: 3_600_000,
      pollIntervalMs: 5000,
    });
    for (const key of [
      'task',
      'requestState',
      'result',
      'error',
      'inputRequests',
      'ttl',
      'pollInterval',
    ]) {
      expect(created).not.toHaveProperty(key);
    }
  });

  test('tasks/get: each status carries what it should, and nothing else', () => {
    expect(getTaskResult(record())).toEqual({
      ...createTaskResult(record()),
      resultType: 'complete',
    });
    const waiting = getTaskResult(asking());
    expect(waiting).toMatchObject({
      resultType: 'complete',
      status: 'input_required',
      statusMessage: 'Waiting for an answer: Please enter your name.',
      lastUpdatedAt: '2026-08-01T09:00:01.000Z',
      inputRequests: {
        name: {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Please enter your name.' },
        },
      },
    });
    expect(waiting).not.toHaveProperty('requestState');
    const done = getTaskResult(
      withOutcome(
        asking(),
        {
          kind: 'result',
          result: {
            content: [{ type: 'text', text: 'Hello, Luca!' }],
            _meta: { [RELATED_TASK_META_KEY]: { taskId: 'x' }, 'example.com/kept': 1 },
          },
        },
        T0 + 2000,
      )!,
    );
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Hello, Luca!' }] },
    });
    // The related-task key of 2025-11-25 is not inlined (the task id is at the root); others stay.
    expect((done as unknown as { result: { _meta: unknown } }).result._meta).toEqual({
      'example.com/kept': 1,
    });
    expect(done).not.toHaveProperty('inputRequests');
    const failed = getTaskResult(
      withOutcome(
        record(),
        { kind: 'error', error: { code: -32603, message: 'API rate limit exceeded' } },
        T0,
      )!,
    );
    expect(failed).toMatchObject({
      status: 'failed',
      statusMessage: 'API rate limit exceeded',
      error: { code: -32603, message: 'API rate limit exceeded' },
    });
    expect(failed).not.toHaveProperty('result');
    expect(getTaskResult(record({ status: 'cancelled' }))).toEqual({
      ...getTaskResult(record()),
      status: 'cancelled',
    });
  });

  test('a notification carries the same task tasks/get would return', () => {
    expect(taskNotification(asking())).toEqual({
      method: 'notifications/tasks',
      params: (({ resultType: _r, ...task }) => task)(getTaskResult(asking())),
    });
  });

  test('acks are empty; errors name the extension, the method and the task', () => {
    expect(taskAck()).toEqual({ resultType: 'complete' });
    expect(missingTasksExtension('tasks/get')).toEqual({
      code: -32021,
      message:
        'tasks/get requires the io.modelcontextprotocol/tasks extension, which this request did not declare in its client capabilities',
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    expect(unknownTask('tasks/get', 'nope')).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Failed to retrieve task: no task "nope"/),
    });
    expect(unknownTask('tasks/cancel', 'nope').message).toMatch(/^Failed to cancel task/);
    expect(tasksExtensionCapability()).toEqual(EXT);
  });

  test('the server decides: a task for declaring clients, a plain call or -32021 for the others', () => {
    expect(decideModernTask('report', 'optional', EXT)).toEqual({ kind: 'task' });
    expect(decideModernTask('report', 'optional', {})).toEqual({ kind: 'sync' });
    expect(decideModernTask('greet', undefined, EXT)).toEqual({ kind: 'sync' });
    expect(decideModernTask('failing_job', 'required', { tasks: { requests: {} } })).toEqual({
      kind: 'refuse',
      error: {
        code: -32021,
        message: expect.stringMatching(
          /^Tool 'failing_job' \(it runs only as a task\) requires the io\.modelcontextprotocol\/tasks extension/,
        ),
        data: { requiredCapabilities: EXT },
      },
    });
  });

  test('task method params are checked', () => {
    expect(isTaskMethod('tasks/update')).toBe(true);
    expect(isTaskMethod('tasks/result')).toBe(false);
    expect(readTaskParams('tasks/get', { taskId: 't' })).toEqual({ taskId: 't' });
    expect(readTaskParams('tasks/get', { taskId: 7 })).toEqual({
      problem: {
        code: -32602,
        message: 'Invalid params: tasks/get needs params.taskId (a non-empty string)',
      },
    });
    expect(readTaskParams('tasks/update', { taskId: 't' })).toMatchObject({
      problem: { code: -32602 },
    });
    expect(readTaskParams('tasks/update', { taskId: 't', inputResponses: {} })).toEqual({
      taskId: 't',
      inputResponses: {},
    });
  });
});

describe('2025-11-25: core tasks', () => {
  test('the task is wrapped, with ttl and pollInterval', () => {
    expect(handshakeCreateTaskResult(record())).toEqual({
      task: {
        taskId: '786512e2-9e0d-44bd-8f29-789f320fe840',
        status: 'working',
        createdAt: '2026-08-01T09:00:00.000Z',
        lastUpdatedAt: '2026-08-01T09:00:00.000Z',
        ttl: 3_600_000,
        pollInterval: 5000,
      },
    });
    expect(handshakeTaskOf(asking())).toMatchObject({
      status: 'input_required',
      ttl: 3_600_000,
    });
    expect(handshakeTaskOf(asking())).not.toHaveProperty('inputRequests');
    expect(handshakeListResult([record()], 'c')).toEqual({
      tasks: [handshakeTaskOf(record())],
      nextCursor: 'c',
    });
    expect(handshakeStatusNotification(record()).method).toBe('notifications/tasks/status');
  });

  test('tasks/result returns what the call returned, tagged with its task', () => {
    const done = withOutcome(
      record(),
      { kind: 'result', result: { content: [], _meta: { a: 1 } } },
      T0,
    )!;
    expect(handshakeTaskPayload(done)).toEqual({
      kind: 'result',
      result: { content: [], _meta: { a: 1, ...relatedTaskMeta(done.taskId) } },
    });
    const failed = withOutcome(
      record(),
      { kind: 'error', error: { code: -32602, message: 'bad' } },
      T0,
    )!;
    expect(handshakeTaskPayload(failed)).toEqual({
      kind: 'error',
      error: { code: -32602, message: 'bad' },
    });
    expect(handshakeTaskPayload(record({ status: 'cancelled' }))).toMatchObject({
      kind: 'error',
      error: { code: -32603, data: { status: 'cancelled' } },
    });
    expect(() => handshakeTaskPayload(record())).toThrow(/has not ended/);
    expect(alreadyEnded(done)).toEqual({
      code: -32602,
      message: `Cannot cancel task ${done.taskId}: it already ended (completed)`,
    });
  });

  test('params.task asks for a task; the tool’s support decides', () => {
    expect(readHandshakeTaskParam(undefined)).toEqual({ requested: false });
    expect(readHandshakeTaskParam({})).toEqual({ requested: true });
    expect(readHandshakeTaskParam({ ttl: 60_000 })).toEqual({ requested: true, ttl: 60_000 });
    expect(readHandshakeTaskParam({ ttl: -1 })).toMatchObject({ problem: { code: -32602 } });
    expect(readHandshakeTaskParam('yes')).toMatchObject({ problem: { code: -32602 } });
    expect(handshakeTtl(60_000, 3_600_000)).toBe(60_000);
    expect(handshakeTtl(7_200_000, 3_600_000)).toBe(3_600_000);
    expect(handshakeTtl(undefined, null)).toBeNull();
    expect(decideHandshakeTask('x', 'optional', true)).toEqual({ kind: 'task' });
    expect(decideHandshakeTask('x', 'optional', false)).toEqual({ kind: 'sync' });
    expect(decideHandshakeTask('x', 'required', false)).toMatchObject({
      kind: 'refuse',
      error: { code: -32601 },
    });
    expect(decideHandshakeTask('x', undefined, true)).toMatchObject({
      kind: 'refuse',
      error: { code: -32601 },
    });
    expect(handshakeTasksCapability()).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    expect(handshakeToolExecution(undefined)).toEqual({ taskSupport: 'forbidden' });
    expect(handshakeToolExecution('required')).toEqual({ taskSupport: 'required' });
  });
});

describe('status messages', () => {
  test('the question while it waits; else the latest of message and progress', () => {
    expect(statusMessageOf(record())).toBeUndefined();
    expect(
      statusMessageOf(withProgress(record(), { progress: 2, total: 8, message: 'Rendering' }, T0)!),
    ).toBe('Rendering (25%)');
    expect(statusMessageOf(withProgress(record(), { progress: 3 }, T0)!)).toBe('Progress: 3');
    expect(statusMessageOf(record({ statusMessage: 'Deploying' }))).toBe('Deploying');
  });
});

describe('a tool’s task option', () => {
  test('the short forms and the full one, with defaults', () => {
    expect(resolveTaskOptions('tool x', undefined)).toBeUndefined();
    expect(resolveTaskOptions('tool x', 'optional')).toEqual({
      support: 'optional',
      start: 'at-call',
      ttlMs: 86_400_000,
      pollIntervalMs: 1000,
    });
    expect(
      resolveTaskOptions('tool x', {
        support: 'required',
        start: 'by-handler',
        ttlMs: null,
        pollIntervalMs: 250,
      }),
    ).toEqual({ support: 'required', start: 'by-handler', ttlMs: null, pollIntervalMs: 250 });
  });

  test('what is not an option is refused where the tool is registered', () => {
    expect(() => resolveTaskOptions('tool x', 'always' as never)).toThrow(
      new TypeError(`tool x: task support must be 'optional' or 'required' (got "always").`),
    );
    expect(() => resolveTaskOptions('tool x', { support: 'optional', ttl: 5 } as never)).toThrow(
      /task\.ttl is not an option/,
    );
    expect(() => resolveTaskOptions('tool x', { support: 'optional', ttlMs: 1.5 })).toThrow(
      RangeError,
    );
    expect(() => resolveTaskOptions('tool x', { support: 'optional', pollIntervalMs: 0 })).toThrow(
      /task\.pollIntervalMs must be a whole, positive number/,
    );
    expect(() =>
      resolveTaskOptions('tool x', { support: 'optional', start: 'later' as never }),
    ).toThrow(TypeError);
    expect(() => resolveTaskOptions('tool x', null as never)).toThrow(TypeError);
  });
});
