import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, createMemoryTaskStore, elicitRequest } from '../../src/index.ts';
import { modernRequestInit } from '../helpers/rawModern.ts';

/**
 * `notifications/tasks` on the 2026-07-28 `subscriptions/listen` stream (SEP-2663 over
 * SEP-2575): a client names its tasks in `notifications.taskIds` and hears each change of their
 * state as the `DetailedTask` `tasks/get` would return, whichever replica made it; beside list
 * changes on the same stream. Raw wire through the server's fetch face.
 */

const TASKS = { 'io.modelcontextprotocol/tasks': {} };
const CAPABILITIES = { elicitation: { form: {} }, extensions: TASKS };
const approve = elicitRequest(
  'Deploy to production?',
  z.object({ approve: z.boolean().meta({ title: 'Approve' }) }),
);

function deployServer(options: { store?: ReturnType<typeof createMemoryTaskStore> } = {}) {
  const server = new ParleyServer({
    name: 'deployer',
    tasks: { ...(options.store !== undefined ? { store: options.store } : {}) },
    onWarning: () => {},
    onError: () => {},
  });
  server.tool('deploy', { task: 'required' }, async (_args, ctx) => {
    const go = await ctx.ask('approve', approve);
    await ctx.reportProgress(1, 2, 'Deploying');
    await new Promise((resolve) => setTimeout(resolve, 20));
    return go.action === 'accept' && go.data.approve ? 'Deployed' : 'Not deployed';
  });
  return server;
}

function request(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = CAPABILITIES,
): Request {
  return new Request('http://parley.test/mcp', modernRequestInit(method, params, capabilities));
}

async function call(server: ParleyServer, method: string, params: Record<string, unknown>) {
  const body = (await (await server.fetch(request(method, params))).json()) as {
    result: Record<string, unknown>;
  };
  return body.result;
}

interface Message {
  id?: unknown;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: Record<string, unknown>;
}

/** The messages of an SSE answer, as they arrive. */
function messagesOf(response: Response): { next(): Promise<Message>; close(): Promise<void> } {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data !== '') return JSON.parse(data) as Message;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffer += value;
      }
    },
    close: () => reader.cancel(),
  };
}

describe('notifications/tasks through subscriptions/listen', () => {
  test('the task’s state now, then each change: input_required, working, completed with the result', async () => {
    const server = deployServer();
    const created = await call(server, 'tools/call', { name: 'deploy', arguments: {} });
    const taskId = String(created.taskId);
    const response = await server.fetch(
      request('subscriptions/listen', {
        notifications: { taskIds: [taskId], toolsListChanged: true },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = messagesOf(response);
    const ack = await stream.next();
    expect(ack.method).toBe('notifications/subscriptions/acknowledged');
    const listenId = ack.params!._meta!['io.modelcontextprotocol/subscriptionId'];
    expect(ack.params!.notifications).toEqual({ taskIds: [taskId], toolsListChanged: true });

    const statuses: string[] = [];
    let note = await stream.next();
    while (note.params?.status !== 'input_required') {
      statuses.push(String(note.params?.status));
      note = await stream.next();
    }
    statuses.push('input_required');
    expect(note.method).toBe('notifications/tasks');
    expect(note.params!._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': listenId });
    // The same task tasks/get gives now.
    const { _meta, ...task } = note.params!;
    const { resultType, _meta: _serverInfo, ...got } = await call(server, 'tasks/get', { taskId });
    expect(resultType).toBe('complete');
    expect(task).toEqual(got);
    const [key] = Object.keys(task.inputRequests as object);

    await call(server, 'tasks/update', {
      taskId,
      inputResponses: { [key!]: { action: 'accept', content: { approve: true } } },
    });
    for (;;) {
      note = await stream.next();
      statuses.push(
        `${String(note.params?.status)}${note.params?.statusMessage ? `: ${String(note.params.statusMessage)}` : ''}`,
      );
      if (note.params?.status === 'completed') break;
    }
    expect(note.params!.result).toEqual({ content: [{ type: 'text', text: 'Deployed' }] });
    // Only changes that show on the wire are sent: no two in a row alike.
    expect(statuses.filter((status, i) => status === statuses[i - 1])).toEqual([]);
    expect(statuses.slice(statuses.indexOf('input_required'))).toEqual([
      'input_required',
      'working',
      'working: Deploying (50%)',
      'completed',
    ]);

    // The same stream still carries list changes.
    server.tool('later', () => 'x');
    expect((await stream.next()).method).toBe('notifications/tools/list_changed');
    await stream.close();
  });

  test('a replica hears of a task another replica runs (one store)', async () => {
    const store = createMemoryTaskStore();
    const a = deployServer({ store });
    const b = deployServer({ store });
    const taskId = String((await call(a, 'tools/call', { name: 'deploy', arguments: {} })).taskId);
    const stream = messagesOf(
      await b.fetch(request('subscriptions/listen', { notifications: { taskIds: [taskId] } })),
    );
    await stream.next(); // the acknowledgement
    let note = await stream.next();
    while (note.params?.status !== 'input_required') note = await stream.next();
    const [key] = Object.keys(note.params!.inputRequests as object);
    await call(b, 'tasks/update', {
      taskId,
      inputResponses: { [key!]: { action: 'accept', content: { approve: false } } },
    });
    while (note.params?.status !== 'completed') note = await stream.next();
    expect(note.params!.result).toEqual({ content: [{ type: 'text', text: 'Not deployed' }] });
    await stream.close();
  });

  test('tasks it may not hear of are left out of the acknowledgement; nothing left: the stream ends', async () => {
    const server = deployServer();
    const stream = messagesOf(
      await server.fetch(
        request('subscriptions/listen', { notifications: { taskIds: ['no-such-task'] } }),
      ),
    );
    expect((await stream.next()).params!.notifications).toEqual({ taskIds: [] });
    const end = await stream.next();
    expect(end.result).toMatchObject({ resultType: 'complete' });
    await expect(stream.next()).rejects.toThrow(/ended/);
  });

  test('taskIds without the extension declared: -32021 naming it', async () => {
    const server = deployServer();
    const response = await server.fetch(
      request(
        'subscriptions/listen',
        { notifications: { taskIds: ['x'] } },
        { elicitation: { form: {} } },
      ),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: TASKS } },
    });
  });

  test('a filter that is not one: -32602 saying what is wrong', async () => {
    const server = deployServer();
    for (const [notifications, problem] of [
      [undefined, /params\.notifications \(an object\) is required/],
      [{ taskIds: 'abc' }, /notifications\.taskIds must be an array of non-empty strings/],
      [{ taskIds: [''] }, /notifications\.taskIds must be an array/],
      [{ toolsListChanged: 'yes' }, /notifications\.toolsListChanged must be a boolean/],
      [{ taskIds: Array.from({ length: 1001 }, (_, i) => `t${i}`) }, /at most 1000/],
    ] as const) {
      const response = await server.fetch(
        request('subscriptions/listen', notifications === undefined ? {} : { notifications }),
      );
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32602);
      expect(body.error.message).toMatch(problem);
    }
  });
});
