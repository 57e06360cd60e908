import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, TaskCancelledError, elicitRequest } from '../../src/index.ts';
import { ManualClock } from '../helpers/manualClock.ts';
import { rawHandshake } from '../helpers/rawHandshake.ts';
import { modernRequestInit } from '../helpers/rawModern.ts';

/**
 * Tools that run as tasks, served through `ParleyServer` and spoken to on the raw wire: on
 * 2026-07-28 a `tools/call` answers with the task, `tasks/get` shows its questions, and
 * `tasks/update` answers them (partly, too) while the handler *awaits* inside `ctx.ask`, for as
 * long as the task lives; on 2025-11-25 `params.task` asks for one, and its questions come as
 * real requests on the `tasks/result` stream. Time is a manual clock.
 */

const TASKS = { 'io.modelcontextprotocol/tasks': {} };
const CAPABILITIES = { elicitation: { form: {} }, extensions: TASKS };

const approve = elicitRequest(
  'Deploy to production?',
  z.object({ approve: z.boolean().meta({ title: 'Approve' }) }),
);
const region = elicitRequest(
  'Which region?',
  z.object({ region: z.enum(['eu-west', 'us-east']).meta({ title: 'Region' }) }),
);

interface Seen {
  cancelled: unknown[];
}

function deployServer(clock: ManualClock): { server: ParleyServer; seen: Seen } {
  const seen: Seen = { cancelled: [] };
  const server = new ParleyServer({
    name: 'deployer',
    tasks: { clock },
    onWarning: () => {},
    onError: () => {},
  });
  server.tool('deploy', { task: 'optional' }, async (_args, ctx) => {
    try {
      const go = await ctx.ask('approve', approve);
      if (go.action !== 'accept' || !go.data.approve) return 'Not deployed';
      await ctx.reportProgress(1, 2, 'Approved; choosing a region');
      const where = await ctx.ask('region', region);
      return where.action === 'accept' ? `Deployed to ${where.data.region}` : 'Not deployed';
    } catch (error) {
      seen.cancelled.push(error);
      throw error;
    }
  });
  server.tool('pair', { task: 'required' }, async (_args, ctx) => {
    const [first, second] = await Promise.all([
      ctx.ask('approve', approve),
      ctx.ask('region', region),
    ]);
    return JSON.stringify([first.action, second.action === 'accept' ? second.data : null]);
  });
  server.tool('plain', () => 'a plain call');
  return { server, seen };
}

/** What these tests read of a task method's result (absent members are absent on the wire). */
interface WireTask {
  [key: string]: unknown;
  resultType: string;
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  inputRequests: Record<string, { method: string; params: { message: string } }>;
  result: { content: { type: string; text: string }[] };
  error: { code: number; message: string; data?: unknown };
  capabilities: { extensions?: unknown };
}

/** One raw 2026-07-28 request through the server's fetch face, with the routing headers. */
async function raw(
  server: ParleyServer,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = CAPABILITIES,
): Promise<{ status: number; result?: WireTask; error?: WireTask['error'] }> {
  const response = await server.fetch(
    new Request('http://parley.test/mcp', modernRequestInit(method, params, capabilities)),
  );
  const body = (await response.json()) as { result?: WireTask; error?: WireTask['error'] };
  return { status: response.status, ...body };
}

/** `tasks/get` until the task reaches `status` (the clock settling in between). */
async function until(
  server: ParleyServer,
  clock: ManualClock,
  taskId: string,
  status: string,
  keys?: number,
): Promise<WireTask> {
  for (let i = 0; i < 50; i++) {
    const { result } = await raw(server, 'tasks/get', { taskId });
    if (
      result?.status === status &&
      (keys === undefined || Object.keys(result.inputRequests ?? {}).length === keys)
    )
      return result;
    await clock.settle();
  }
  throw new Error(`task ${taskId} never reached ${status}`);
}

const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('2026-07-28, on the raw wire', () => {
  test('a task that asks twice: each question on tasks/get, each answer by tasks/update, then the result', async () => {
    const clock = new ManualClock();
    const { server } = deployServer(clock);
    const created = await raw(server, 'tools/call', { name: 'deploy', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(created.result).not.toHaveProperty('requestState');
    const taskId = created.result!.taskId as string;

    const first = await until(server, clock, taskId, 'input_required');
    // Each question is on the task under its ask's key, as a plain call would ask it.
    expect(Object.keys(first.inputRequests)).toEqual(['approve']);
    const [approveKey] = Object.keys(first.inputRequests);
    expect(first.inputRequests[approveKey!]).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Deploy to production?' },
    });
    const ack = await raw(server, 'tasks/update', {
      taskId,
      inputResponses: { [approveKey!]: accept({ approve: true }) },
    });
    expect(ack.result).toEqual({
      resultType: 'complete',
      _meta: expect.any(Object),
    });

    const second = await until(server, clock, taskId, 'input_required');
    const [regionKey] = Object.keys(second.inputRequests);
    expect(regionKey).toBe('region');
    expect(second.inputRequests[regionKey!]!.params.message).toBe('Which region?');
    await raw(server, 'tasks/update', {
      taskId,
      inputResponses: { [regionKey!]: accept({ region: 'eu-west' }) },
    });

    const done = await until(server, clock, taskId, 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Deployed to eu-west' }]);
  });

  test('a partial tasks/update: the task stays input_required with only the unanswered key', async () => {
    const clock = new ManualClock();
    const { server } = deployServer(clock);
    const { result } = await raw(server, 'tools/call', { name: 'pair', arguments: {} });
    const taskId = result!.taskId as string;
    const both = await until(server, clock, taskId, 'input_required', 2);
    expect(Object.keys(both.inputRequests).sort()).toEqual(['approve', 'region']);
    const keyOf = (message: string) =>
      Object.keys(both.inputRequests).find(
        (key) => both.inputRequests[key]!.params.message === message,
      )!;

    await raw(server, 'tasks/update', {
      taskId,
      inputResponses: {
        [keyOf('Which region?')]: accept({ region: 'us-east' }),
        'never-asked': accept({ anything: 1 }),
      },
    });
    await clock.settle();
    const partial = (await raw(server, 'tasks/get', { taskId })).result!;
    expect(partial.status).toBe('input_required');
    expect(Object.keys(partial.inputRequests)).toEqual([keyOf('Deploy to production?')]);

    await raw(server, 'tasks/update', {
      taskId,
      inputResponses: { [keyOf('Deploy to production?')]: { action: 'decline' } },
    });
    const done = await until(server, clock, taskId, 'completed');
    expect(done.result.content[0]!.text).toBe(JSON.stringify(['decline', { region: 'us-east' }]));
  });

  test('an answer after 10 minutes of simulated time still reaches the waiting handler', async () => {
    const clock = new ManualClock();
    const { server } = deployServer(clock);
    const { result } = await raw(server, 'tools/call', { name: 'deploy', arguments: {} });
    const taskId = result!.taskId as string;
    const asked = await until(server, clock, taskId, 'input_required');

    // Longer than the server's elicitation timeout (10 minutes): a task's question waits on.
    await clock.advance(10 * 60_000 + 1);
    const later = (await raw(server, 'tasks/get', { taskId })).result!;
    expect(later.status).toBe('input_required');
    await raw(server, 'tasks/update', {
      taskId,
      inputResponses: { [Object.keys(asked.inputRequests)[0]!]: accept({ approve: true }) },
    });
    const next = await until(server, clock, taskId, 'input_required');
    expect(next.statusMessage).toBe('Waiting for an answer: Which region?');
    await clock.advance(60 * 60_000);
    await raw(server, 'tasks/update', {
      taskId,
      inputResponses: { [Object.keys(next.inputRequests)[0]!]: accept({ region: 'us-east' }) },
    });
    const done = await until(server, clock, taskId, 'completed');
    expect(done.result.content[0]!.text).toBe('Deployed to us-east');
    expect(Date.parse(done.lastUpdatedAt) - Date.parse(done.createdAt)).toBeGreaterThan(
      70 * 60_000,
    );
  });

  test('cancel while waiting: cancelled at once, the handler’s ask ends with TaskCancelledError', async () => {
    const clock = new ManualClock();
    const { server, seen } = deployServer(clock);
    const { result } = await raw(server, 'tools/call', { name: 'deploy', arguments: {} });
    const taskId = result!.taskId as string;
    const asked = await until(server, clock, taskId, 'input_required');

    const ack = await raw(server, 'tasks/cancel', { taskId });
    expect(ack.result?.resultType).toBe('complete');
    await clock.settle();
    const after = (await raw(server, 'tasks/get', { taskId })).result!;
    expect(after.status).toBe('cancelled');
    expect(after).not.toHaveProperty('inputRequests');
    expect(seen.cancelled).toHaveLength(1);
    expect(seen.cancelled[0]).toBeInstanceOf(TaskCancelledError);

    // A late answer changes nothing.
    await raw(server, 'tasks/update', {
      taskId,
      inputResponses: { [Object.keys(asked.inputRequests)[0]!]: accept({ approve: true }) },
    });
    await clock.settle();
    expect((await raw(server, 'tasks/get', { taskId })).result!.status).toBe('cancelled');
  });

  test('a client without the extension: optional tools run as plain calls, required ones refuse with -32021', async () => {
    const clock = new ManualClock();
    const { server } = deployServer(clock);
    const plain = { elicitation: { form: {} } };
    const refused = await raw(server, 'tools/call', { name: 'pair', arguments: {} }, plain);
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: TASKS } },
    });
    const gate = await raw(server, 'tasks/get', { taskId: 'x' }, plain);
    expect(gate.error?.code).toBe(-32021);
    const sync = await raw(server, 'tools/call', { name: 'deploy', arguments: {} }, plain);
    expect(sync.result?.resultType).toBe('input_required');
    const discover = await raw(server, 'server/discover', {});
    expect(discover.result?.capabilities.extensions).toEqual(TASKS);
  });
});

describe('2025-11-25, on the raw wire', () => {
  test('params.task creates the task; its two questions come on the tasks/result stream, tagged with the task', async () => {
    const clock = new ManualClock();
    const { server } = deployServer(clock);
    const answers = [
      { action: 'accept', content: { approve: true } },
      accept({ region: 'eu-west' }),
    ];
    const client = await rawHandshake(server, { answer: (_request, index) => answers[index] });
    try {
      const listed = await client.request('tools/list', {});
      const tools = listed.result!.tools as { name: string; execution?: unknown }[];
      expect(tools.find((t) => t.name === 'deploy')?.execution).toEqual({
        taskSupport: 'optional',
      });
      expect(tools.find((t) => t.name === 'plain')).not.toHaveProperty('execution');

      const created = await client.request('tools/call', {
        name: 'deploy',
        arguments: {},
        task: { ttl: 60_000 },
      });
      expect(created.error).toBeUndefined();
      const task = created.result!.task as Record<string, unknown>;
      expect(task).toMatchObject({ status: 'working', ttl: 60_000 });
      const taskId = task.taskId as string;

      const outcome = client.request('tasks/result', { taskId });
      for (let i = 0; i < 40 && client.pushed.length < 2; i++) await clock.settle();
      const final = await outcome;
      expect(client.pushed.map((p) => p.params.message)).toEqual([
        'Deploy to production?',
        'Which region?',
      ]);
      // Tagged with the task, and with the question's key on the task (its ask's key).
      expect(client.pushed.map((p) => p.params._meta)).toEqual([
        { 'io.modelcontextprotocol/related-task': { taskId }, 'dev.parley/askKey': 'approve' },
        { 'io.modelcontextprotocol/related-task': { taskId }, 'dev.parley/askKey': 'region' },
      ]);
      expect(final.result).toMatchObject({
        content: [{ type: 'text', text: 'Deployed to eu-west' }],
        _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
      });
      const got = await client.request('tasks/get', { taskId });
      expect(got.result).toMatchObject({ taskId, status: 'completed' });
      const list = await client.request('tasks/list', {});
      expect((list.result!.tasks as { taskId: string }[]).map((t) => t.taskId)).toEqual([taskId]);

      // notifications/tasks/status told the session of each change, without the related-task key.
      const statuses = client.notifications
        .filter((n) => n.method === 'notifications/tasks/status')
        .map((n) => n.params);
      expect(statuses.map((task) => `${task.status}: ${String(task.statusMessage)}`)).toEqual([
        'input_required: Waiting for an answer: Deploy to production?',
        'working: undefined',
        'working: Approved; choosing a region (50%)',
        'input_required: Waiting for an answer: Which region?',
        'working: Approved; choosing a region (50%)',
        'completed: undefined',
      ]);
      expect(statuses[0]).toMatchObject({
        taskId,
        statusMessage: 'Waiting for an answer: Deploy to production?',
        ttl: 60_000,
      });
      expect(statuses.every((task) => task._meta === undefined)).toBe(true);

      // A tool that runs only as a task refuses a plain call, as 2025-11-25 says.
      const refused = await client.request('tools/call', { name: 'pair', arguments: {} });
      expect(refused.error?.code).toBe(-32601);
    } finally {
      await client.close();
    }
  });
});
