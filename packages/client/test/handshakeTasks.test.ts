import { afterEach, describe, expect, test } from 'vitest';

import { Client, TaskCancelledError, type RoundEvent, type TaskSnapshot } from '../src/index.ts';
import {
  startRawHandshakeTaskServer,
  type HandshakeStep,
  type RawHandshakeTaskServer,
} from './helpers/rawHandshakeTaskServer.ts';

/**
 * The Parley client against a 2025-11-25 server with core tasks, written by hand (real HTTP on
 * 127.0.0.1): the client asks for a task where the tool requires one (`params.task`), waits on
 * `tasks/result`, answers the questions pushed on that stream with its usual handlers, and
 * returns the result as if the call had been synchronous.
 */

const form = (message: string, name: string) => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] },
});

const tools: Record<string, HandshakeStep[]> = {
  deploy: [
    { ask: form('Which environment?', 'env') },
    { ask: form('Release notes?', 'notes') },
    { result: (answers) => ({ content: [{ type: 'text', text: JSON.stringify(answers) }] }) },
  ],
  slow: [{ hang: true }],
};

let server: RawHandshakeTaskServer | undefined;
let client: Client | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

const replies: Record<string, Record<string, string>> = {
  'Which environment?': { env: 'staging' },
  'Release notes?': { notes: 'Fixes the login page' },
};

describe('2025-11-25 core tasks', () => {
  test('a task that asks twice, answered on the tasks/result stream, returns the result', async () => {
    server = await startRawHandshakeTaskServer(tools);
    const rounds: RoundEvent[] = [];
    const statuses: TaskSnapshot['status'][] = [];
    client = new Client(server.url, {
      mode: 'handshake',
      elicitationHandler: (message, responseType) => responseType(replies[message] as never),
      onRound: (event) => rounds.push(event),
    });
    await client.connect();
    const result = await client.callTool(
      'deploy',
      {},
      {
        onTask: (task) => {
          statuses.push(task.current.status);
          task.onChange((snapshot) => statuses.push(snapshot.status));
        },
      },
    );
    expect(result.content).toEqual([
      {
        type: 'text',
        text: JSON.stringify([
          { action: 'accept', content: { env: 'staging' } },
          { action: 'accept', content: { notes: 'Fixes the login page' } },
        ]),
      },
    ]);
    expect(result._meta).toEqual({
      'io.modelcontextprotocol/related-task': { taskId: 'handshake-1' },
    });
    const call = server.received.find((r) => r.method === 'tools/call');
    expect(call?.params.task).toEqual({});
    expect(server.received.filter((r) => r.method === 'tasks/result')).toHaveLength(1);
    expect(server.pushedAnswers.map((a) => a.result)).toEqual([
      { action: 'accept', content: { env: 'staging' } },
      { action: 'accept', content: { notes: 'Fixes the login page' } },
    ]);
    expect(rounds.map((r) => r.round)).toEqual([1, 2]);
    expect(statuses[0]).toBe('working');
  });

  test('task.cancel(): the task is cancelled and the call ends in TaskCancelledError', async () => {
    server = await startRawHandshakeTaskServer(tools);
    client = new Client(server.url, { mode: 'handshake' });
    await client.connect();
    const error = await client
      .callTool('slow', {}, { onTask: (task) => setTimeout(() => void task.cancel(), 40) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskCancelledError);
    expect((error as TaskCancelledError).data).toEqual({
      taskId: 'handshake-1',
      statusMessage: 'Cancelled by request',
    });
    expect(server.received.filter((r) => r.method === 'tasks/cancel')).toHaveLength(1);
  });

  test('tasks: false never asks for a task, so a tool that requires one is refused', async () => {
    server = await startRawHandshakeTaskServer(tools);
    client = new Client(server.url, { mode: 'handshake', tasks: false });
    await client.connect();
    await expect(client.callTool('deploy')).rejects.toMatchObject({ code: -32601 });
    expect(server.received.find((r) => r.method === 'tools/call')?.params).not.toHaveProperty(
      'task',
    );
  });
});
