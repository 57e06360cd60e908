import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import {
  Client,
  type ElicitationAnswer,
  type ElicitationHandler,
  type InputContext,
  type ResponseBuilder,
  type RoundEvent,
} from '@parley/client';

import { openTarget, textOf, type OpenTarget, type Via } from './helpers/targets.ts';

/**
 * Every client example of the seeds, with the Parley client against a `ParleyServer`: in this
 * process, as a child process over stdio, and over HTTP on 127.0.0.1, each in both eras. One
 * connection per transport and era; the handlers below answer what the examples ask.
 */

type Answer = ElicitationAnswer | ((responseType: ResponseBuilder) => ElicitationAnswer);

/** Per-test answers by message, over the defaults in `handler`. */
let overrides: Record<string, Answer> = {};
let rounds: RoundEvent[] = [];
let contexts: InputContext[] = [];

/** The seed's handler: it reads the message to decide what to answer. */
const handler: ElicitationHandler = (message, responseType, params, ctx) => {
  contexts.push(ctx);
  const override = overrides[message];
  if (override !== undefined)
    return typeof override === 'function' ? override(responseType) : override;
  if (message.includes('Where')) return responseType({ destination: 'Paris' });
  if (message.startsWith('When')) return responseType({ date: '2026-08-01' });
  if (message === 'Enter your name:') return responseType('Alice');
  if (message === "What's the meeting title?") return responseType('Standup');
  if (message === 'Duration in minutes?') return 15;
  if (message === 'Is this urgent?') return responseType('yes');
  if (message === 'Please provide task details') return responseType({ title: 'Write docs' });
  if (message === 'Choose tags') return responseType(['bug', 'documentation']);
  if (message === 'What are you working on?') return 'an audit';
  if (message === 'Which quarter should the summary cover?') return { quarter: 'Q3' };
  if (params.mode === 'url') return { action: 'accept' };
  throw new Error(`unexpected question: ${message}`);
};

const cases: [Via, 'modern' | 'handshake'][] = [
  ['in-process', 'modern'],
  ['in-process', 'handshake'],
  ['stdio', 'modern'],
  ['stdio', 'handshake'],
  ['http', 'modern'],
  ['http', 'handshake'],
];

describe.each(cases)('%s, %s era', (via, era) => {
  let opened: OpenTarget;
  let client: Client;
  const rootsAsked: number[] = [];

  beforeAll(async () => {
    opened = await openTarget(via);
    client = new Client(opened.target, {
      mode: era,
      clientInfo: { name: 'seed-tests', version: '1.0.0' },
      elicitationHandler: handler,
      samplingHandler: (messages) => {
        const first = messages[0]?.content;
        const prompt =
          first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '';
        return `(${prompt.length} chars) A TypeScript monorepo.`;
      },
      roots: (ctx) => {
        rootsAsked.push(ctx.round);
        return [{ uri: 'file:///home/me/project', name: 'project' }];
      },
      onRound: (event) => rounds.push(event),
    });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await opened?.close();
  });

  beforeEach(() => {
    overrides = {};
    rounds = [];
    contexts = [];
  });

  test('connects in that era', () => {
    expect(client.era).toBe(era);
    expect(client.protocolVersion).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
  });

  test('the booking flow: a handler that reads the message, two rounds, result.data', async () => {
    const result = await client.callTool<string>('book_flight', {});
    expect(result.data).toBe('Booked a flight to Paris on 2026-08-01');
    expect(textOf(result)).toContain('Booked a flight to Paris on 2026-08-01');
    expect(result.isError).toBe(false);
    expect(rounds.map((r) => [r.era, r.call, r.round])).toEqual([
      [era, { method: 'tools/call', name: 'book_flight' }, 1],
      [era, { method: 'tools/call', name: 'book_flight' }, 2],
    ]);
    expect(rounds.map((r) => Object.values(r.asked)[0]?.params)).toMatchObject([
      { message: 'Where would you like to fly?' },
      { message: 'When would you like to fly to Paris?' },
    ]);
    expect(contexts.map((c) => [c.era, c.call?.name, c.round])).toEqual([
      [era, 'book_flight', 1],
      [era, 'book_flight', 2],
    ]);
  });

  test.each([
    ['accept', undefined, 'Hello Alice!'],
    ['decline', { action: 'decline' }, 'No name provided'],
    ['cancel', { action: 'cancel' }, 'Operation cancelled'],
  ] as const)('pattern matching: %s', async (_action, answer, expected) => {
    if (answer !== undefined) overrides['Enter your name:'] = answer;
    expect(textOf(await client.callTool('pattern_example', {}))).toBe(expected);
  });

  test('multi-turn: three questions, three rounds', async () => {
    const result = await client.callTool('plan_meeting', {});
    expect(textOf(result)).toBe("Meeting 'Standup' for 15 minutes (Urgent: true)");
    expect(rounds.map((r) => r.round)).toEqual([1, 2, 3]);
  });

  test('structured answers get the schema defaults the handler left out', async () => {
    const result = await client.callTool('create_task', {});
    expect(textOf(result)).toBe('Created: Write docs (Priority: medium)');
    expect(Object.values(rounds[0]?.answered ?? {})).toEqual([
      { action: 'accept', content: { title: 'Write docs', description: '', priority: 'medium' } },
    ]);
  });

  test('multi-select', async () => {
    expect(textOf(await client.callTool('select_tags', {}))).toBe(
      'Selected tags: bug, documentation',
    );
  });

  test('URL mode reaches the same handler with the URL in params', async () => {
    let url: string | undefined;
    overrides['Sign in to Example'] = (responseType) => responseType({});
    const result = await client.callTool('connect_account', {});
    expect(textOf(result)).toBe('Connected');
    const asked = Object.values(rounds[0]?.asked ?? {})[0];
    if (asked?.method === 'elicitation/create' && asked.params.mode === 'url')
      url = asked.params.url;
    expect(url).toBe('https://auth.example.com/connect');
    expect(Object.values(rounds[0]?.answered ?? {})).toEqual([{ action: 'accept' }]);
  });

  test('sampling and roots answered from samplingHandler and roots', async () => {
    const before = rootsAsked.length;
    const result = await client.callTool('survey_workspace', {});
    expect(textOf(result)).toBe(
      'Purpose: an audit; roots: file:///home/me/project; summary: (41 chars) A TypeScript monorepo.',
    );
    expect(rootsAsked.length).toBe(before + 1);
    // Modern: one round of three requests; handshake: three pushed requests, a round each.
    expect(rounds.map((r) => Object.values(r.asked).map((a) => a.method))).toEqual(
      era === 'modern'
        ? [['elicitation/create', 'roots/list', 'sampling/createMessage']]
        : [['elicitation/create'], ['roots/list'], ['sampling/createMessage']],
    );
  });

  test('a prompt that asks', async () => {
    const prompt = await client.getPrompt('summarize');
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Summarize the Q3 results.' } },
    ]);
    expect(rounds.map((r) => r.call)).toEqual([{ method: 'prompts/get', name: 'summarize' }]);
  });

  test('a resource that asks', async () => {
    const resource = await client.readResource('report://summary');
    expect(resource.contents).toEqual([
      { uri: 'report://summary', mimeType: 'text/plain', text: 'Revenue report for Q3' },
    ]);
    expect(rounds.map((r) => r.call)).toEqual([
      { method: 'resources/read', name: 'report://summary' },
    ]);
  });

  test('data: a scalar output unwrapped, an object output as it is', async () => {
    const count = await client.callTool<number>('count_letters', { word: 'parley' });
    expect(count.data).toBe(6);
    expect(count.structuredContent).toEqual(era === 'modern' ? 6 : { result: 6 });
    const stats = await client.callTool('word_stats', { word: 'parley' });
    expect(stats.data).toEqual({ length: 6, upper: 'PARLEY' });
  });
});

describe.each(['in-process', 'stdio', 'http'] as const)("mode 'auto' (%s)", (via) => {
  test('picks the modern protocol, which this server offers', async () => {
    const opened = await openTarget(via);
    try {
      await using client = new Client(opened.target, { elicitationHandler: handler });
      await client.connect();
      expect(client.era).toBe('modern');
      expect((await client.callTool('book_flight', {})).data).toBe(
        'Booked a flight to Paris on 2026-08-01',
      );
    } finally {
      await opened.close();
    }
  }, 60_000);
});
