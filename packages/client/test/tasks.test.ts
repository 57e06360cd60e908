import { ProtocolError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';

import {
  Client,
  InputHandlerError,
  RoundsExceededError,
  TaskCancelledError,
  UnsupportedCapabilityError,
  type ClientOptions,
  type RoundEvent,
  type TaskHandle,
  type TaskSnapshot,
} from '../src/index.ts';
import { startRawTaskServer, type RawTaskServer, type Step } from './helpers/rawTaskServer.ts';

/**
 * The Parley client against a tasks-extension server written by hand (2026-07-28, real HTTP on
 * 127.0.0.1): `callTool` returns the final result of a call that became a task, as if it had
 * been synchronous, answering the task's questions with the handlers it already has; a handle
 * lets the caller watch or cancel.
 */

const form = (message: string, name: string, type: 'string' | 'boolean' = 'string') => ({
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message,
    requestedSchema: { type: 'object', properties: { [name]: { type } }, required: [name] },
  },
});

const echo = (answers: Record<string, unknown>) => ({
  content: [{ type: 'text', text: JSON.stringify(answers) }],
});

const tools: Record<string, Step[]> = {
  deploy: [
    { ask: { approve: form('Deploy to production?', 'approve', 'boolean') } },
    { ask: { region: form('Which region?', 'region') } },
    { result: echo },
  ],
  pair: [
    { ask: { first: form('First?', 'value'), second: form('Second?', 'value') } },
    { result: echo },
  ],
  prepare: [{ result: echo }],
  instant: [{ result: () => ({ content: [{ type: 'text', text: 'done at once' }] }) }],
  slow: [{ hang: true }],
  broken: [{ error: { code: -32602, message: 'Unknown job' } }],
  chatty: [
    { ask: { one: form('One?', 'value') } },
    { ask: { two: form('Two?', 'value') } },
    { ask: { three: form('Three?', 'value') } },
    { result: echo },
  ],
};

let server: RawTaskServer | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const answers: Record<string, unknown> = {
  'Deploy to production?': { approve: true },
  'Which region?': { region: 'eu-west' },
  'First?': { value: '1' },
  'Second?': { value: '2' },
  'Your name?': { name: 'Alice' },
  'One?': { value: '1' },
  'Two?': { value: '2' },
  'Three?': { value: '3' },
};

async function connect(options: ClientOptions = {}, pollIntervalMs = 30): Promise<Client> {
  server = await startRawTaskServer({
    tools,
    pollIntervalMs,
    mrtrFirst: ['prepare'],
    immediate: ['instant'],
  });
  client = new Client(server.url, {
    mode: 'modern',
    elicitationHandler: (message, responseType) => responseType(answers[message] as never),
    ...options,
  });
  await client.connect();
  return client;
}

const calls = (method: string) => server!.received.filter((r) => r.method === method);

describe('a call that becomes a task', () => {
  test('asks twice, is answered by the client’s handler, and returns the final result', async () => {
    const rounds: RoundEvent[] = [];
    const seen: TaskSnapshot[] = [];
    let handle: TaskHandle | undefined;
    await connect({ onRound: (event) => rounds.push(event) });
    const result = await client!.callTool(
      'deploy',
      {},
      {
        onTask: (task) => {
          handle = task;
          seen.push(task.current);
          task.onChange((snapshot) => seen.push(snapshot));
        },
      },
    );
    expect(result.content).toEqual([
      {
        type: 'text',
        text: JSON.stringify({
          approve: { action: 'accept', content: { approve: true } },
          region: { action: 'accept', content: { region: 'eu-west' } },
        }),
      },
    ]);
    expect(handle?.taskId).toMatch(/^task-1-/);
    expect(handle?.era).toBe('modern');
    expect(handle?.call).toEqual({ method: 'tools/call', name: 'deploy' });
    expect(seen.map((s) => s.status)).toEqual([
      'working',
      'input_required',
      'working',
      'input_required',
      'working',
      'completed',
    ]);
    expect(seen[2]?.statusMessage).toBe('Working on it');
    expect(seen[1]?.pollIntervalMs).toBe(30);
    expect(handle?.current.status).toBe('completed');

    // The client declared the extension on the call, and on every task request.
    const [call] = calls('tools/call');
    expect(call?.params._meta).toMatchObject({
      'io.modelcontextprotocol/clientCapabilities': {
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    });
    const gets = calls('tasks/get');
    for (const get of gets) {
      expect(get.params).toMatchObject({ taskId: handle!.taskId });
      expect(get.headers['mcp-name']).toBe(handle!.taskId);
      expect(get.headers['mcp-method']).toBe('tasks/get');
    }
    // Polls honour the server's interval (timers never fire early by more than a tick).
    for (let i = 1; i < gets.length; i++) {
      expect(gets[i]!.at - gets[i - 1]!.at).toBeGreaterThanOrEqual(29);
    }
    // Each question answered once, however many polls showed it, each in its own update.
    expect(
      calls('tasks/update').map((u) => Object.keys(u.params.inputResponses as object)),
    ).toEqual([['approve'], ['region']]);
    expect(rounds.map((r) => [r.round, Object.keys(r.asked)])).toEqual([
      [1, ['approve']],
      [2, ['region']],
    ]);
  });

  test('two questions at once: each answer is sent as soon as it is ready (partial updates)', async () => {
    await connect({
      elicitationHandler: async (message, responseType) => {
        // The second question is answered first; the first one takes longer.
        if (message === 'First?') await new Promise((resolve) => setTimeout(resolve, 80));
        return responseType(answers[message] as never);
      },
    });
    const result = await client!.callTool('pair');
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      first: { action: 'accept', content: { value: '1' } },
      second: { action: 'accept', content: { value: '2' } },
    });
    expect(
      calls('tasks/update').map((u) => Object.keys(u.params.inputResponses as object)),
    ).toEqual([['second'], ['first']]);
  });

  test('an MRTR round first, then the task: the answer gathered before the task reaches its result', async () => {
    await connect();
    const result = await client!.callTool('prepare');
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual({
      user_name: { action: 'accept', content: { name: 'Alice' } },
    });
    const [round1, round2] = calls('tools/call');
    expect(round1?.params.requestState).toBeUndefined();
    expect(round2?.params).toMatchObject({
      requestState: 'mrtr-1',
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
    });
    expect(calls('tasks/get').length).toBeGreaterThan(0);
  });

  test('a task created already completed is read once for its result', async () => {
    await connect();
    expect((await client!.callTool('instant')).content).toEqual([
      { type: 'text', text: 'done at once' },
    ]);
    expect(calls('tasks/get')).toHaveLength(1);
  });

  test('a tool that answers synchronously still does', async () => {
    await connect();
    expect((await client!.callTool('greet')).content).toEqual([{ type: 'text', text: 'Hello!' }]);
    expect(calls('tasks/get')).toEqual([]);
  });
});

describe('watching and stopping a task', () => {
  test('task.cancel() sends tasks/cancel, and the call ends in TaskCancelledError', async () => {
    await connect();
    const call = client!.callTool(
      'slow',
      {},
      {
        onTask: (task) => {
          task.onChange(() => void task.cancel());
        },
      },
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskCancelledError);
    expect((error as TaskCancelledError).message).toMatch(
      /^Task task-1-\S+ was cancelled: Cancelled by request\.$/,
    );
    expect(calls('tasks/cancel')).toHaveLength(1);
    expect(calls('tasks/cancel')[0]?.headers['mcp-name']).toBe(
      (error as TaskCancelledError).data?.taskId,
    );
  });

  test('the caller’s signal cancels the task on the server too', async () => {
    await connect();
    const stop = new AbortController();
    const call = client!.callTool(
      'slow',
      {},
      {
        signal: stop.signal,
        onTask: () => setTimeout(() => stop.abort(new Error('user pressed Ctrl-C')), 50),
      },
    );
    await expect(call).rejects.toThrow('user pressed Ctrl-C');
    await expect.poll(() => calls('tasks/cancel').length).toBe(1);
    expect([...server!.tasks.values()][0]?.status).toBe('cancelled');
  });

  test('a failed task throws the error the call ended in', async () => {
    await connect();
    const error = await client!.callTool('broken').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown job') });
  });

  test('a task that keeps asking past the round bound is stopped and cancelled', async () => {
    await connect({ maxRounds: 2 });
    const error = await client!.callTool('chatty').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RoundsExceededError);
    expect((error as RoundsExceededError).data?.lastResult.inputRequests).toHaveProperty('three');
    await expect.poll(() => calls('tasks/cancel').length).toBe(1);
  });

  test('a handler that fails stops the call and cancels the task', async () => {
    await connect({
      elicitationHandler: () => {
        throw new Error('the user closed the window');
      },
    });
    const error = await client!.callTool('deploy').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    expect((error as InputHandlerError).data).toMatchObject({ key: 'approve', round: 1 });
    await expect.poll(() => calls('tasks/cancel').length).toBe(1);
  });
});

describe('tasks: false', () => {
  test('declares nothing, so a tool that runs only as a task is refused with -32021', async () => {
    await connect({ tasks: false });
    const error = await client!.callTool('deploy').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedCapabilityError);
    expect((error as UnsupportedCapabilityError).data?.requiredCapabilities).toEqual({
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    });
    expect(calls('tools/call')[0]?.params._meta).not.toHaveProperty([
      'io.modelcontextprotocol/clientCapabilities',
      'extensions',
    ]);
  });

  test('refuses a tasks option that is not a boolean', () => {
    expect(() => new Client('http://127.0.0.1:1/mcp', { tasks: 'yes' as never })).toThrow(
      new TypeError('Client: tasks must be true or false.'),
    );
  });
});
