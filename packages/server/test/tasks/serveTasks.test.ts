import type { InputRequest } from '@parley/core';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { elicitRequest } from '../../src/ask/builders.ts';
import { serveHandshakeTaskMethod, serveModernTaskMethod } from '../../src/tasks/serveTasks.ts';
import { TaskEngine } from '../../src/tasks/taskEngine.ts';
import type { TaskIO } from '../../src/tasks/taskEngineTypes.ts';
import type { TaskScope } from '../../src/tasks/taskRecord.ts';
import { createMemoryTaskStore } from '../../src/tasks/taskStore.ts';
import type { TaskOutcome } from '../../src/tasks/taskTransitions.ts';
import { ManualClock } from '../helpers/manualClock.ts';

/**
 * The task methods as a transport hands them over: method, params, and the facts of the
 * request, for both eras, over a real engine and store.
 */

const EXT = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const declared = { clientCapabilities: { elicitation: {}, ...EXT } };

const modernScope: TaskScope = {
  tool: 'confirm_delete',
  era: 'modern',
  protocolVersion: '2026-07-28',
  clientCapabilities: declared.clientCapabilities,
};
const handshakeScope: TaskScope = {
  tool: 'confirm_delete',
  era: 'handshake',
  protocolVersion: '2025-11-25',
  clientCapabilities: { elicitation: {} },
  sessionId: 's1',
};

const confirm = elicitRequest('Delete report.txt?', z.object({ confirm: z.boolean() }));

function setup() {
  const clock = new ManualClock();
  const engine = new TaskEngine({
    store: createMemoryTaskStore({ now: () => clock.now() }),
    clock,
  });
  const start = (run: (io: TaskIO) => Promise<TaskOutcome>, scope = modernScope) =>
    engine.start({ scope, ttlMs: 60_000, pollIntervalMs: 100, run });
  return { clock, engine, start };
}

const asking = async (io: TaskIO): Promise<TaskOutcome> => {
  const { confirm: answer } = await io.ask({ confirm });
  return { kind: 'result', result: { content: [{ type: 'text', text: JSON.stringify(answer) }] } };
};

describe('2026-07-28', () => {
  test('a client that did not declare the extension gets -32021 from every task method', async () => {
    const { engine } = setup();
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect(
        await serveModernTaskMethod(
          engine,
          method,
          { taskId: 'x', inputResponses: {} },
          { clientCapabilities: {} },
        ),
      ).toMatchObject({
        kind: 'error',
        error: { code: -32021, data: { requiredCapabilities: EXT } },
      });
    }
  });

  test('tasks/result and tasks/list are not methods of the extension', async () => {
    const { engine } = setup();
    expect(
      await serveModernTaskMethod(engine, 'tasks/result', { taskId: 'x' }, declared),
    ).toBeUndefined();
    expect(await serveModernTaskMethod(engine, 'tasks/list', {}, declared)).toBeUndefined();
  });

  test('get, update (ignoring unknown keys), cancel, each with its shape', async () => {
    const { engine, start, clock } = setup();
    const task = await start(asking);
    await clock.settle();
    const got = await serveModernTaskMethod(engine, 'tasks/get', { taskId: task.taskId }, declared);
    expect(got).toMatchObject({
      kind: 'result',
      result: {
        resultType: 'complete',
        status: 'input_required',
        inputRequests: { confirm: { method: 'elicitation/create' } },
      },
    });
    expect(
      await serveModernTaskMethod(
        engine,
        'tasks/update',
        { taskId: task.taskId, inputResponses: { 'unknown-key': { ignored: true } } },
        declared,
      ),
    ).toEqual({ kind: 'result', result: { resultType: 'complete' } });
    expect(
      await serveModernTaskMethod(
        engine,
        'tasks/update',
        { taskId: task.taskId, inputResponses: 'yes' },
        declared,
      ),
    ).toMatchObject({
      kind: 'error',
      error: { code: -32602, data: { reason: 'invalid_input_responses' } },
    });
    await serveModernTaskMethod(
      engine,
      'tasks/update',
      {
        taskId: task.taskId,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      },
      declared,
    );
    await clock.settle();
    expect(
      await serveModernTaskMethod(engine, 'tasks/get', { taskId: task.taskId }, declared),
    ).toMatchObject({
      result: {
        status: 'completed',
        result: { content: [{ text: '{"action":"accept","content":{"confirm":true}}' }] },
      },
    });
    // Cancelling an ended task is acknowledged all the same; an unknown one is -32602.
    expect(
      await serveModernTaskMethod(engine, 'tasks/cancel', { taskId: task.taskId }, declared),
    ).toEqual({
      kind: 'result',
      result: { resultType: 'complete' },
    });
    expect(
      await serveModernTaskMethod(engine, 'tasks/get', { taskId: 'nope' }, declared),
    ).toMatchObject({
      kind: 'error',
      error: { code: -32602 },
    });
    expect(await serveModernTaskMethod(engine, 'tasks/get', {}, declared)).toMatchObject({
      kind: 'error',
      error: {
        code: -32602,
        message: 'Invalid params: tasks/get needs params.taskId (a non-empty string)',
      },
    });
  });
});

describe('2025-11-25', () => {
  test('tasks/result pushes the question on its stream, delivers the answer, and returns the result', async () => {
    const { engine, start } = setup();
    const task = await start(asking, handshakeScope);
    const pushed: { request: InputRequest; meta: unknown }[] = [];
    const reply = await serveHandshakeTaskMethod(
      engine,
      'tasks/result',
      { taskId: task.taskId },
      { sessionId: 's1' },
      {
        signal: new AbortController().signal,
        push: async (request, meta) => {
          pushed.push({ request, meta });
          return { action: 'accept', content: { confirm: false } };
        },
      },
    );
    expect(pushed).toEqual([
      {
        request: expect.objectContaining({ method: 'elicitation/create' }),
        // The task, and the question's key on the task.
        meta: {
          'io.modelcontextprotocol/related-task': { taskId: task.taskId },
          'dev.parley/askKey': 'confirm',
        },
      },
    ]);
    expect(reply).toEqual({
      kind: 'result',
      result: {
        content: [{ type: 'text', text: '{"action":"accept","content":{"confirm":false}}' }],
        _meta: { 'io.modelcontextprotocol/related-task': { taskId: task.taskId } },
      },
    });
  });

  test('tasks/get, tasks/list, and tasks/cancel (refused once the task ended)', async () => {
    const { engine, start, clock } = setup();
    const task = await start(asking, handshakeScope);
    await clock.settle();
    const signal = new AbortController().signal;
    expect(
      await serveHandshakeTaskMethod(
        engine,
        'tasks/get',
        { taskId: task.taskId },
        { sessionId: 's1' },
        { signal },
      ),
    ).toMatchObject({
      kind: 'result',
      result: { taskId: task.taskId, status: 'input_required', ttl: 60_000, pollInterval: 100 },
    });
    expect(
      await serveHandshakeTaskMethod(engine, 'tasks/list', {}, { sessionId: 's1' }, { signal }),
    ).toMatchObject({
      kind: 'result',
      result: { tasks: [{ taskId: task.taskId }] },
    });
    expect(
      await serveHandshakeTaskMethod(engine, 'tasks/list', {}, { sessionId: 'other' }, { signal }),
    ).toEqual({
      kind: 'result',
      result: { tasks: [] },
    });
    expect(
      await serveHandshakeTaskMethod(
        engine,
        'tasks/list',
        { cursor: 'bad' },
        { sessionId: 's1' },
        { signal },
      ),
    ).toMatchObject({
      kind: 'error',
      error: { code: -32602 },
    });
    expect(
      await serveHandshakeTaskMethod(
        engine,
        'tasks/cancel',
        { taskId: task.taskId },
        { sessionId: 's1' },
        { signal },
      ),
    ).toMatchObject({
      kind: 'result',
      result: { status: 'cancelled', statusMessage: 'Cancelled at the client’s request.' },
    });
    expect(
      await serveHandshakeTaskMethod(
        engine,
        'tasks/cancel',
        { taskId: task.taskId },
        { sessionId: 's1' },
        { signal },
      ),
    ).toMatchObject({
      kind: 'error',
      error: {
        code: -32602,
        message: `Cannot cancel task ${task.taskId}: it already ended (cancelled)`,
      },
    });
    expect(
      await serveHandshakeTaskMethod(
        engine,
        'tasks/result',
        { taskId: task.taskId },
        { sessionId: 's1' },
        { signal },
      ),
    ).toMatchObject({
      kind: 'error',
      error: { code: -32603, data: { status: 'cancelled' } },
    });
    expect(
      await serveHandshakeTaskMethod(engine, 'tasks/update', {}, {}, { signal }),
    ).toBeUndefined();
  });

  test('a question the client fails to answer ends tasks/result with an error, and stays asked', async () => {
    const { engine, start } = setup();
    const task = await start(asking, handshakeScope);
    const reply = await serveHandshakeTaskMethod(
      engine,
      'tasks/result',
      { taskId: task.taskId },
      {},
      {
        signal: new AbortController().signal,
        push: async () => {
          throw new Error('the client went away');
        },
      },
    );
    expect(reply).toMatchObject({
      kind: 'error',
      error: {
        code: -32603,
        message: expect.stringContaining(
          'a question of the task got no answer (the client went away)',
        ),
      },
    });
    expect((await engine.get(task.taskId, {}))?.status).toBe('input_required');
    await engine.cancel(task.taskId, {});
  });
});
