import { join } from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import {
  Client,
  InputHandlerError,
  type ClientTarget,
  type ElicitationAnswer,
  type ElicitationHandler,
  type ElicitFormParams,
  type ElicitUrlParams,
  type ResponseBuilder,
} from '@parley/client';

import { startHttpServer, type RunningServer } from './processes.ts';
import { fastmcpPython, findPython, pythonDir } from './pythonPeer.ts';

/**
 * Parley's client against a FastMCP server (Python, python/server.py): every kind of question
 * FastMCP's elicitation docs describe, over HTTP on 127.0.0.1 and over stdio, in both eras. The
 * server's tools return, as JSON, what the answer became on the Python side.
 */

const base = findPython('FastMCP peer suite');
const server = join(pythonDir, 'server.py');
/** `-B`: Python writes no __pycache__ into the repository (server.py imports asking.py). */
const serverArgs = (transport: 'http' | 'stdio') => ['-B', server, transport];

type Answer = ElicitationAnswer | ((responseType: ResponseBuilder) => ElicitationAnswer);

let answers: Record<string, Answer> = {};
let asked: (ElicitFormParams | ElicitUrlParams)[] = [];

const handler: ElicitationHandler = (message, responseType, params) => {
  asked.push(params);
  const answer = answers[message];
  if (answer === undefined) throw new Error(`unexpected question: ${message}`);
  return typeof answer === 'function' ? answer(responseType) : answer;
};

/** What a FastMCP tool reported receiving. */
function arrived(result: { content: readonly unknown[] }): unknown {
  const text = (result.content[0] as { text?: string } | undefined)?.text ?? '';
  return JSON.parse(text);
}

function schemaOf(index = 0): object {
  const params = asked[index];
  if (params === undefined || params.mode === 'url') throw new Error(`no form asked at ${index}`);
  return params.requestedSchema;
}

const cases = [
  ['http', 'handshake'],
  ['http', 'modern'],
  ['stdio', 'handshake'],
  ['stdio', 'modern'],
] as const;

describe.skipIf(base === undefined)('Parley client against a FastMCP 4.0.10 server', () => {
  let http: RunningServer | undefined;
  const clients = new Map<string, Client>();
  /** What each client warned about the server's schemas, by `transport era`. */
  const warnings = new Map<string, string[]>();

  beforeAll(async () => {
    // The first run on a machine installs FastMCP into the venv (pythonPeer.ts).
    const python = await fastmcpPython(base!);
    http = await startHttpServer(python, serverArgs('http'));
    // One Python process for HTTP and one per stdio connection, started side by side.
    await Promise.all(
      cases.map(async ([transport, era]) => {
        const target: ClientTarget =
          transport === 'http' ? http!.url : { command: python, args: serverArgs('stdio') };
        const client = new Client(target, {
          mode: era,
          clientInfo: { name: 'fastmcp-peer-tests', version: '1.0.0' },
          elicitationHandler: handler,
          samplingHandler: () => 'A TypeScript monorepo.',
          roots: [{ uri: 'file:///home/me/project', name: 'project' }],
          onWarning: (message) => warnings.get(`${transport} ${era}`)!.push(message),
        });
        warnings.set(`${transport} ${era}`, []);
        clients.set(`${transport} ${era}`, client);
        await client.connect();
      }),
    );
  }, 20 * 60_000);

  afterAll(async () => {
    await Promise.all([...clients.values()].map((client) => client.close()));
    await http?.close();
  });

  describe.each(cases)('%s, %s era', (transport, era) => {
    let client: Client;

    beforeAll(() => {
      client = clients.get(`${transport} ${era}`)!;
    });

    beforeEach(() => {
      answers = {};
      asked = [];
    });

    test('connects in that era', () => {
      expect(client.protocolVersion).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
    });

    test.each([
      ['get_user_name', "What's your name?", 'Ada', 'string'],
      ['pick_a_number', 'Pick a number!', 42, 'integer'],
      ['pick_a_boolean', 'True or false?', false, 'boolean'],
    ] as const)('a scalar: %s', async (tool, message, value, type) => {
      answers[message] = value;
      const result = await client.callTool(tool, {});
      expect(arrived(result)).toEqual({ action: 'accept', data: value });
      expect(schemaOf()).toMatchObject({ type: 'object', properties: { value: { type } } });
    });

    test('a scalar with its field label', async () => {
      answers['Buy 1x Baguette?'] = true;
      expect(arrived(await client.callTool('confirm_purchase', {}))).toEqual({
        action: 'accept',
        data: true,
      });
      expect(schemaOf()).toMatchObject({
        properties: {
          value: {
            type: 'boolean',
            title: 'Confirm purchase',
            description: 'Approve this transaction?',
          },
        },
      });
    });

    test('approval only: an empty form, accepted with no content', async () => {
      answers['Approve this action?'] = { action: 'accept' };
      const result = arrived(await client.callTool('approve_action', {})) as {
        action: string;
        content: unknown;
      };
      expect(result.action).toBe('accept');
      expect(result.content ?? {}).toEqual({});
      expect(schemaOf()).toEqual({ type: 'object', properties: {} });
    });

    test('approval only with response_type=None: FastMCP 4.0.10 refuses it before asking', async () => {
      const result = await client.callTool('approve_with_none', {});
      expect(result.isError).toBe(true);
      expect(asked).toEqual([]);
      expect(JSON.stringify(result.content)).toContain('ctx.elicit() requires a response_type.');
    });

    test.each([
      ['set_priority', 'high'],
      ['set_priority_literal', 'low'],
      ['set_priority_enum', { enum: 'Priority', value: 'medium' }],
    ] as const)('options: %s', async (tool, expected) => {
      const choice = typeof expected === 'string' ? expected : expected.value;
      answers['What priority level?'] = (responseType) => responseType(choice);
      expect(arrived(await client.callTool(tool, {}))).toEqual({
        action: 'accept',
        data: expected,
      });
      expect(schemaOf()).toMatchObject({
        properties: { value: { enum: ['low', 'medium', 'high'] } },
      });
    });

    test('titled options', async () => {
      answers['What priority level?'] = 'medium';
      expect(arrived(await client.callTool('set_priority_titled', {}))).toEqual({
        action: 'accept',
        data: 'medium',
      });
      expect(schemaOf()).toMatchObject({
        properties: {
          value: {
            oneOf: [
              { const: 'low', title: 'Low Priority' },
              { const: 'medium', title: 'Medium Priority' },
              { const: 'high', title: 'High Priority' },
            ],
          },
        },
      });
    });

    // FastMCP sends this one as `items: { enum: [...] }`, without `type: 'string'`: read the
    // same way in both eras, with a warning naming the server and the field.
    test('multi-select (list of a list), read though its items have no type', async () => {
      answers['Choose tags'] = ['bug', 'documentation'];
      expect(arrived(await client.callTool('select_tags', {}))).toEqual({
        action: 'accept',
        data: ['bug', 'documentation'],
      });
      expect(schemaOf()).toMatchObject({
        properties: {
          value: { type: 'array', items: { enum: ['bug', 'feature', 'documentation'] } },
        },
      });
      expect(warnings.get(`${transport} ${era}`)).toContainEqual(
        expect.stringMatching(/field "value" without items\.type; read it as strings/),
      );
    });

    test('multi-select of an Enum (list[Tag])', async () => {
      answers['Choose tags'] = ['feature'];
      expect(arrived(await client.callTool('select_tags_enum', {}))).toEqual({
        action: 'accept',
        data: [{ enum: 'Tag', value: 'feature' }],
      });
    });

    test('titled multi-select', async () => {
      answers['Choose priorities'] = ['low', 'high'];
      expect(arrived(await client.callTool('select_priorities', {}))).toEqual({
        action: 'accept',
        data: ['low', 'high'],
      });
    });

    test('a dataclass', async () => {
      answers['Please provide your information'] = { name: 'Ada', age: 36 };
      expect(arrived(await client.callTool('collect_user_info', {}))).toEqual({
        action: 'accept',
        data: { type: 'UserInfo', name: 'Ada', age: 36 },
      });
      answers['Please provide task details'] = {
        title: 'Ship',
        description: 'the peer suite',
        priority: 'high',
        due_date: '2026-12-24',
      };
      expect(arrived(await client.callTool('create_task', {}))).toEqual({
        action: 'accept',
        data: {
          type: 'TaskDetails',
          title: 'Ship',
          description: 'the peer suite',
          priority: 'high',
          due_date: '2026-12-24',
        },
      });
    });

    test("defaults: the handler's answer gets the schema's defaults", async () => {
      answers['Please provide task details'] = (responseType) =>
        responseType({ title: 'Write docs' });
      expect(arrived(await client.callTool('create_task_with_defaults', {}))).toEqual({
        action: 'accept',
        data: {
          type: 'TaskWithDefaults',
          title: 'Write docs',
          description: '',
          priority: 'medium',
        },
      });
      expect(schemaOf()).toMatchObject({
        properties: { description: { default: '' }, priority: { default: 'medium' } },
        required: ['title'],
      });
    });

    test('multi-turn: three questions', async () => {
      answers["What's the meeting title?"] = 'Standup';
      answers['Duration in minutes?'] = 15;
      answers['Is this urgent?'] = 'yes';
      const result = await client.callTool('plan_meeting', {});
      expect(result.content).toEqual([
        { type: 'text', text: "Meeting 'Standup' for 15 minutes (Urgent: True)" },
      ]);
      expect(asked.map((params) => params.message)).toEqual([
        "What's the meeting title?",
        'Duration in minutes?',
        'Is this urgent?',
      ]);
    });

    test.each(['decline', 'cancel'] as const)(
      '%s reaches the tool as an answer',
      async (action) => {
        answers["What's your name?"] = { action };
        expect(arrived(await client.callTool('get_user_name', {}))).toEqual({ action });
      },
    );

    test('URL mode', async () => {
      answers['Sign in to Example'] = { action: 'accept' };
      expect(arrived(await client.callTool('connect_account', {}))).toEqual({ action: 'accept' });
      expect(asked).toMatchObject([{ mode: 'url', url: 'https://auth.example.com/connect' }]);
    });

    test('elicitation, roots and sampling in one call', async () => {
      answers['What are you working on?'] = 'an audit';
      expect(arrived(await client.callTool('survey_workspace', {}))).toMatchObject({
        purpose: 'an audit',
        roots: ['file:///home/me/project'],
        summary: 'A TypeScript monorepo.',
      });
    });

    test('a prompt that asks', async () => {
      answers['Which quarter should the summary cover?'] = 'Q3';
      const prompt = await client.getPrompt('summarize');
      expect(prompt.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Summarize the Q3 results.' } },
      ]);
    });

    test('a resource that asks', async () => {
      answers['Which quarter should the summary cover?'] = 'Q4';
      const resource = await client.readResource('report://summary');
      expect(resource.contents).toMatchObject([
        { uri: 'report://summary', text: 'Revenue report for Q4' },
      ]);
    });

    test('a wrong answer is refused, naming the field, before it reaches the server', async () => {
      answers['Pick a number!'] = 'many';
      const call = client.callTool('pick_a_number', {});
      await expect(call).rejects.toBeInstanceOf(InputHandlerError);
      await expect(call).rejects.toThrow(/value/);
    });

    if (era === 'modern') {
      test("the guard pattern: the docs' booking flow, three rounds", async () => {
        answers['Where would you like to fly?'] = { destination: 'Paris' };
        answers['When would you like to fly to Paris?'] = { date: '2026-08-01' };
        const result = await client.callTool('book_flight', {});
        expect(result.content).toEqual([
          { type: 'text', text: 'Booked a flight to Paris on 2026-08-01' },
        ]);
        expect(asked.map((params) => params.message)).toEqual([
          'Where would you like to fly?',
          'When would you like to fly to Paris?',
        ]);
      });
    } else {
      test("the guard pattern on a handshake connection: FastMCP's era error", async () => {
        await expect(client.callTool('book_flight', {})).rejects.toThrow(
          "Tool 'book_flight' returned an InputRequiredResult to request client input, but the multi-round-trip result type (SEP-2322) only exists at MCP 2026-07-28; this connection negotiated '2025-11-25'.",
        );
      });
    }
  });
});
