import { SdkError } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';

import { readTask } from '../src/tasks/taskShapes.ts';

/** A malformed task from a server is the server's error, named, never a crash further on. */

const task = {
  taskId: 't1',
  status: 'working',
  createdAt: '2026-08-01T09:00:00Z',
  lastUpdatedAt: '2026-08-01T09:00:00Z',
  ttlMs: 60_000,
  pollIntervalMs: 500,
};

describe('readTask', () => {
  test('reads both eras into one shape', () => {
    expect(readTask(task, 'modern')).toEqual({ ...task });
    const { ttlMs: _t, pollIntervalMs: _p, ...common } = task;
    expect(readTask({ ...common, ttl: null, pollInterval: 250 }, 'handshake')).toEqual({
      ...common,
      ttlMs: null,
      pollIntervalMs: 250,
    });
  });

  test.each([
    ['not an object', 'yes', 'not an object'],
    ['no id', { ...task, taskId: '' }, 'no taskId'],
    ['another task', { ...task, taskId: 't2' }, 'it answered about task "t2"'],
    ['an unknown status', { ...task, status: 'paused' }, 'unknown status "paused"'],
    ['a ttl that is not a number', { ...task, ttlMs: '60s' }, 'ttlMs is not a number'],
    [
      'a completed task without its result',
      { ...task, status: 'completed' },
      'a completed task needs its result',
    ],
    [
      'a failed task without its error',
      { ...task, status: 'failed', error: 'x' },
      'a failed task needs its error',
    ],
    [
      'questions that are not a map',
      { ...task, status: 'input_required', inputRequests: [] },
      'inputRequests is not an object',
    ],
  ])('refuses %s', (_what, value, reason) => {
    let thrown: unknown;
    try {
      readTask(value, 'modern', 't1');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SdkError);
    expect((thrown as Error).message).toContain(reason);
  });

  test('a task as created carries no result, even when it already ended', () => {
    expect(readTask({ ...task, status: 'completed' }, 'modern', undefined, 'created').status).toBe(
      'completed',
    );
  });
});
