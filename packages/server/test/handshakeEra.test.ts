import { afterEach, describe, expect, test } from 'vitest';

import type { ElicitResult } from '@parley/core';
import { createSeedServer } from './fixtures/seedServer.ts';
import {
  connectSdkClient,
  textOf,
  type ConnectedClient,
  type TestVia,
} from './helpers/sdkClients.ts';

/**
 * The seeds' handshake-era examples (`ctx.elicit`), driven by a real SDK v2 client on a
 * 2025-11-25 connection, in-process and against the server as a child process over stdio.
 */

type Answer = ElicitResult | ((params: Record<string, unknown>) => ElicitResult);

function scripted(...answers: Answer[]): (params: Record<string, unknown>) => ElicitResult {
  let index = 0;
  return (params) => {
    const answer = answers[index++];
    if (answer === undefined) throw new Error(`unexpected elicitation: ${JSON.stringify(params)}`);
    return typeof answer === 'function' ? answer(params) : answer;
  };
}

const accept = (content: ElicitResult['content']): ElicitResult => ({ action: 'accept', content });
const wrapped = (type: Record<string, unknown>) => ({
  type: 'object',
  properties: { value: type },
  required: ['value'],
});
const form = (message: string, requestedSchema: unknown) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema },
});

describe.each<TestVia>(['in-process', 'stdio'])('handshake era (%s)', (via) => {
  let connection: ConnectedClient | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  async function call(name: string, ...answers: Answer[]) {
    connection = await connectSdkClient({
      era: 'handshake',
      via,
      server: createSeedServer(),
      answers: { elicit: scripted(...answers) },
    });
    const result = await connection.client.callTool({ name, arguments: {} });
    return { result, text: textOf(result), seen: connection.seen };
  }

  test('the connection negotiated a handshake-era version', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via,
      server: createSeedServer(),
      answers: {},
    });
    expect(connection.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
  });

  test('collect_user_info: a structured answer, typed', async () => {
    const { text, seen } = await call('collect_user_info', accept({ name: 'Ada', age: 36 }));
    expect(seen).toEqual([
      form('Please provide your information', {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer' } },
        required: ['name', 'age'],
      }),
    ]);
    expect(text).toBe('Hello Ada, you are 36 years old');
  });

  test('collect_user_info: decline and cancel arrive as results, not errors', async () => {
    expect((await call('collect_user_info', { action: 'decline' })).text).toBe(
      'Information not provided',
    );
    await connection?.close();
    expect((await call('collect_user_info', { action: 'cancel' })).text).toBe(
      'Operation cancelled',
    );
  });

  test('pattern_example: instanceof narrows each outcome', async () => {
    const accepted = await call('pattern_example', accept({ value: 'Grace' }));
    expect(accepted.seen).toEqual([form('Enter your name:', wrapped({ type: 'string' }))]);
    expect(accepted.text).toBe('Hello Grace!');
    await connection?.close();
    expect((await call('pattern_example', { action: 'decline' })).text).toBe('No name provided');
    await connection?.close();
    expect((await call('pattern_example', { action: 'cancel' })).text).toBe('Operation cancelled');
  });

  test('plan_meeting: several asks in one call (multi-turn)', async () => {
    const { text, seen } = await call(
      'plan_meeting',
      accept({ value: 'Standup' }),
      accept({ value: 15 }),
      accept({ value: 'yes' }),
    );
    expect(seen).toEqual([
      form("What's the meeting title?", wrapped({ type: 'string' })),
      form('Duration in minutes?', wrapped({ type: 'integer' })),
      form('Is this urgent?', wrapped({ type: 'string', enum: ['yes', 'no'] })),
    ]);
    expect(text).toBe("Meeting 'Standup' for 15 minutes (Urgent: true)");
  });

  test('plan_meeting stops at the first refusal', async () => {
    const { text, seen } = await call('plan_meeting', accept({ value: 'Standup' }), {
      action: 'decline',
    });
    expect(seen).toHaveLength(2);
    expect(text).toBe('Meeting planning cancelled');
  });

  test.each([
    ['get_user_name', "What's your name?", { type: 'string' }, 'Ada', 'Hello, Ada!'],
    ['pick_a_number', 'Pick a number!', { type: 'integer' }, 42, 'You picked 42'],
    ['pick_a_boolean', 'True or false?', { type: 'boolean' }, true, 'You picked true'],
  ] as const)(
    '%s: a scalar is wrapped as value and unwrapped',
    async (tool, message, type, value, expected) => {
      const { text, seen } = await call(tool, accept({ value }));
      expect(seen).toEqual([form(message, wrapped(type))]);
      expect(text).toBe(expected);
    },
  );

  test('confirm_purchase: responseTitle and responseDescription label the field', async () => {
    const { text, seen } = await call('confirm_purchase', accept({ value: true }));
    expect(seen).toEqual([
      form(
        'Buy 1x Baguette?',
        wrapped({
          type: 'boolean',
          title: 'Confirm purchase',
          description: 'Approve this transaction?',
        }),
      ),
    ]);
    expect(text).toBe('Purchased');
  });

  test('approve_action: a confirmation; a refusal becomes a tool error', async () => {
    expect((await call('approve_action', accept({ value: true }))).text).toBe('Action done');
    await connection?.close();
    const rejected = await call('approve_action', accept({ value: false }));
    expect(rejected.result.isError).toBe(true);
    expect(rejected.text).toBe('Action rejected');
  });

  test.each(['set_priority', 'set_priority_literal', 'set_priority_enum'])(
    '%s: constrained options',
    async (tool) => {
      const { text, seen } = await call(tool, accept({ value: 'high' }));
      expect(seen).toEqual([
        form('What priority level?', wrapped({ type: 'string', enum: ['low', 'medium', 'high'] })),
      ]);
      expect(text).toBe('Priority set to: high');
    },
  );

  test('select_tags: multi-select', async () => {
    const { text, seen } = await call('select_tags', accept({ value: ['bug', 'feature'] }));
    expect(seen).toEqual([
      form(
        'Choose tags',
        wrapped({
          type: 'array',
          items: { type: 'string', enum: ['bug', 'feature', 'documentation'] },
        }),
      ),
    ]);
    expect(text).toBe('Selected tags: bug, feature');
  });

  const titledOptions = [
    { const: 'low', title: 'Low Priority' },
    { const: 'medium', title: 'Medium Priority' },
    { const: 'high', title: 'High Priority' },
  ];

  test('set_priority_titled: titled options (SEP-1330 oneOf)', async () => {
    const { text, seen } = await call('set_priority_titled', accept({ value: 'medium' }));
    expect(seen).toEqual([
      form('What priority level?', wrapped({ type: 'string', oneOf: titledOptions })),
    ]);
    expect(text).toBe('Priority set to: medium');
  });

  test('select_priorities: titled multi-select (items.anyOf)', async () => {
    const { text, seen } = await call('select_priorities', accept({ value: ['low', 'high'] }));
    expect(seen).toEqual([
      form('Choose priorities', wrapped({ type: 'array', items: { anyOf: titledOptions } })),
    ]);
    expect(text).toBe('Selected: low, high');
  });

  test('create_task: a structured response with defaults the client may leave out', async () => {
    const { text, seen } = await call('create_task', accept({ title: 'Write docs' }));
    expect(seen).toEqual([
      form('Please provide task details', {
        type: 'object',
        properties: {
          title: { type: 'string', description: 'Task title' },
          description: { type: 'string', description: 'Task description', default: '' },
          priority: {
            type: 'string',
            enum: ['low', 'medium', 'high'],
            description: 'Task priority',
            default: 'medium',
          },
        },
        required: ['title'],
      }),
    ]);
    expect(text).toBe("Created: Write docs (Priority: medium, description: '')");
  });

  test('an answer that does not fit is asked again with the reason, and a corrected one completes', async () => {
    const { text, seen } = await call(
      'pick_a_number',
      accept({ value: 'forty-two' }),
      accept({ value: 42 }),
    );
    expect(text).toBe('You picked 42');
    expect(seen).toHaveLength(2);
    expect(seen[1]?.params).toMatchObject({
      requestedSchema: seen[0]?.params.requestedSchema,
      message:
        'Pick a number!\n\nYour last answer could not be used. Expected an integer, got the string "forty-two".',
    });
    expect(seen[1]?.params.message).not.toContain('value');
  });

  test('an answer that keeps not fitting is asked three more times, then fails with -32602 naming the field', async () => {
    const wrong = accept({ value: 'forty-two' });
    await expect(call('pick_a_number', wrong, wrong, wrong, wrong)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("field 'value'"),
      data: { reason: 'invalid_answer', field: 'value' },
    });
    expect(connection?.seen).toHaveLength(4);
  });

  test('a client without elicitation gets a clear error the tool can catch', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via,
      server: createSeedServer(),
      answers: {},
    });
    const uncaught = await connection.client.callTool({ name: 'collect_user_info', arguments: {} });
    expect(uncaught.isError).toBe(true);
    expect(textOf(uncaught)).toBe('elicitation not supported by this client');
    const caught = await connection.client.callTool({ name: 'optional_feedback', arguments: {} });
    expect(textOf(caught)).toBe('Feedback skipped: elicitation not supported by this client');
  });

  test('a guard-pattern tool on a handshake connection raises the era error', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via,
      server: createSeedServer(),
      answers: {},
    });
    const failure = connection.client.callTool({ name: 'book_flight', arguments: {} });
    await expect(failure).rejects.toThrow(
      "Tool 'book_flight' returned an InputRequiredResult to request client input, but the " +
        'multi-round-trip result type (SEP-2322) only exists at MCP 2026-07-28; this connection ' +
        "negotiated '2025-11-25'. Use ctx.ask(key, ask), which asks on both eras (here: a request to " +
        'the client, awaited), or ctx.elicit() for server-initiated input on handshake-era connections.',
    );
    // The client's era, not a fault of the server's: Invalid Request, not Internal error.
    await expect(failure).rejects.toMatchObject({ code: -32600 });
  });

  test('a guard-pattern prompt on a handshake connection raises the era error too', async () => {
    connection = await connectSdkClient({
      era: 'handshake',
      via,
      server: createSeedServer(),
      answers: {},
    });
    await expect(connection.client.getPrompt({ name: 'summarize' })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining("Prompt 'summarize' returned an InputRequiredResult"),
    });
  });
});
