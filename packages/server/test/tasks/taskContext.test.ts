import { AcceptedElicitation, DeclinedElicitation } from '@parley/core';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { Context } from '../../src/handler/context.ts';
import { Flow } from '../../src/flow/flow.ts';
import { TaskEngine } from '../../src/tasks/taskEngine.ts';
import type { TaskIO } from '../../src/tasks/taskEngineTypes.ts';
import { taskPushChannel } from '../../src/tasks/taskPushChannel.ts';
import type { TaskRecord } from '../../src/tasks/taskRecord.ts';
import { createMemoryTaskStore } from '../../src/tasks/taskStore.ts';
import { ManualClock } from '../helpers/manualClock.ts';

/**
 * Inside a task, the Context's asking API is a real await: a question goes on the task and the
 * handler resumes with the typed answer when it comes back, the same answers, re-asks and
 * decline as for a pushed request.
 */

function contextFor(io: TaskIO): Context {
  return new Context({
    handler: { kind: 'tool', name: 'deploy', cacheable: false },
    request: {
      protocolVersion: '2025-11-25',
      era: 'handshake',
      method: 'tools/call',
      clientCapabilities: { elicitation: { form: {} } },
      clientInfo: undefined,
      sessionId: undefined,
      principal: undefined,
    },
    // A task's flow has one round: nothing is sealed, nothing replayed.
    flow: new Flow({
      identity: { id: 'f', round: 1, startedAt: 0 },
      envelope: undefined,
      asked: {},
      answers: null,
      misfits: [],
      maxReasks: 2,
      use: undefined,
      sealer: undefined as never,
      binding: { method: 'tools/call', target: 'deploy', arguments: {} },
    }),
    maxReasks: 2,
    cancellation: io,
    push: taskPushChannel(io),
    channel: {
      log: async () => {},
      progress: async (progress, total, message) => io.reportProgress(progress, total, message),
    },
    // A task's questions wait as long as the task lives.
    elicitationTimeoutMs: Infinity,
    lintSchema: () => {},
  });
}

async function setup() {
  const clock = new ManualClock();
  const engine = new TaskEngine({
    store: createMemoryTaskStore({ now: () => clock.now() }),
    clock,
  });
  const until = async (taskId: string, status: TaskRecord['status']): Promise<TaskRecord> => {
    for (let i = 0; i < 50; i++) {
      const record = await engine.get(taskId, {});
      if (record?.status === status) return record;
      await clock.settle();
    }
    throw new Error(`never ${status}`);
  };
  const untilAsked = async (taskId: string, key: string): Promise<TaskRecord> => {
    for (let i = 0; i < 50; i++) {
      const record = await engine.get(taskId, {});
      if (record?.inputRequests[key] !== undefined) return record;
      await clock.settle();
    }
    throw new Error(`never asked ${key}`);
  };
  return { clock, engine, until, untilAsked };
}

const scope = {
  tool: 'deploy',
  era: 'handshake' as const,
  protocolVersion: '2025-11-25',
  clientCapabilities: { elicitation: { form: {} } },
};

describe('ctx.elicit inside a task', () => {
  test('waits for the answer on the task, for an hour if need be, and returns it typed', async () => {
    const { clock, engine, until } = await setup();
    let answer: unknown;
    const task = await engine.start({
      scope,
      ttlMs: null,
      pollIntervalMs: 1000,
      run: async (io) => {
        const ctx = contextFor(io);
        await ctx.reportProgress(1, 2, 'Built the image');
        answer = await ctx.elicit('Ship it?', z.object({ ship: z.boolean() }));
        return { kind: 'result', result: { content: [{ type: 'text', text: 'shipped' }] } };
      },
    });
    const waiting = await until(task.taskId, 'input_required');
    expect(Object.keys(waiting.inputRequests)).toEqual(['elicitation']);
    await clock.advance(60 * 60_000);
    await engine.update(
      task.taskId,
      {},
      { elicitation: { action: 'accept', content: { ship: true } } },
    );
    await until(task.taskId, 'completed');
    expect(answer).toBeInstanceOf(AcceptedElicitation);
    expect((answer as AcceptedElicitation<{ ship: boolean }>).data).toEqual({ ship: true });
  });

  test('an answer the schema allows but the type refuses is asked again under a new key', async () => {
    const { engine, until, untilAsked } = await setup();
    let answer: unknown;
    const task = await engine.start({
      scope,
      ttlMs: null,
      pollIntervalMs: 1000,
      run: async (io) => {
        answer = await contextFor(io).elicit(
          'Which cluster?',
          z.object({
            cluster: z.string().refine((v) => v.startsWith('eu-'), 'must be an EU cluster'),
          }),
        );
        return { kind: 'result', result: { content: [] } };
      },
    });
    await until(task.taskId, 'input_required');
    await engine.update(
      task.taskId,
      {},
      { elicitation: { action: 'accept', content: { cluster: 'us-1' } } },
    );
    const again = await untilAsked(task.taskId, 'elicitation-2');
    const reask = again.inputRequests['elicitation-2']!.request as { params: { message: string } };
    expect(reask.params.message).toMatch(
      /^Which cluster\?\n\nYour last answer could not be used\..*must be an EU cluster/s,
    );
    await engine.update(task.taskId, {}, { 'elicitation-2': { action: 'decline' } });
    await until(task.taskId, 'completed');
    expect(answer).toBeInstanceOf(DeclinedElicitation);
  });
});
