import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { FastmcpClient } from './fastmcpClient.ts';
import { createPeerServer } from './parleyServer.ts';
import { fastmcpPython, findPython } from './pythonPeer.ts';

// parleyClient.test.ts prints the line when the suite is skipped.
const base = findPython('FastMCP peer suite', { quiet: true });
const main = fileURLToPath(new URL('./parleyServerMain.ts', import.meta.url));
/** The Parley server as FastMCP's stdio transport starts it: a real Node process, from source. */
const stdioArgs = ['--conditions=@parley/source', '--import', 'tsx', main];

const cases = [
  ['http', 'handshake'],
  ['http', 'modern'],
  ['stdio', 'handshake'],
  ['stdio', 'modern'],
] as const;

describe.skipIf(base === undefined)(
  "FastMCP 4.0.10's Python client against a Parley server",
  () => {
    let closeHttp: (() => Promise<void>) | undefined;
    const clients = new Map<string, FastmcpClient>();

    beforeAll(async () => {
      // The first run on a machine installs FastMCP into the venv (pythonPeer.ts).
      const python = await fastmcpPython(base!);
      const running = await createPeerServer().run({
        transport: 'http',
        host: '127.0.0.1',
        port: 0,
      });
      closeHttp = () => running.close();
      // One FastMCP client process per transport and era, started side by side.
      await Promise.all(
        cases.map(async ([transport, era]) => {
          const target =
            transport === 'http' ? running.url! : { command: process.execPath, args: stdioArgs };
          const mode = era === 'modern' ? '2026-07-28' : 'legacy';
          clients.set(`${transport} ${era}`, await FastmcpClient.start(python, target, mode));
        }),
      );
    }, 20 * 60_000);

    afterAll(async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
      await closeHttp?.();
    });

    describe.each(cases)('%s, %s era', (transport, era) => {
      let client: FastmcpClient;

      beforeAll(() => {
        client = clients.get(`${transport} ${era}`)!;
      });

      test('connects in that era', () => {
        expect(client.protocolVersion).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      });

      function arrived(result: Record<string, unknown>): unknown {
        const content = result.content as { text: string }[];
        return JSON.parse(content[0]!.text);
      }

      test.each([
        ['get_user_name', { value: 'Ada' }, 'Ada', { type: 'string' }],
        ['pick_a_number', { value: 42 }, 42, { type: 'integer' }],
        ['pick_a_boolean', { value: false }, false, { type: 'boolean' }],
      ] as const)('a scalar: %s', async (name, answer, data, property) => {
        const { result, asked } = await client.ok({ op: 'call_tool', name, answers: [answer] });
        expect(arrived(result)).toEqual({ action: 'accept', data });
        expect(asked).toMatchObject([{ typed: true, schema: { properties: { value: property } } }]);
      });

      test('a scalar with its field label', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'confirm_purchase',
          answers: [{ value: true }],
        });
        expect(arrived(result)).toEqual({ action: 'accept', data: true });
        expect(asked[0]?.schema).toMatchObject({
          properties: {
            value: { title: 'Confirm purchase', description: 'Approve this transaction?' },
          },
        });
      });

      test('approval only (null): FastMCP sees an empty form, no response type', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'approve_action',
          answers: [{ action: 'accept' }],
        });
        expect(arrived(result)).toEqual({ action: 'accept' });
        expect(asked).toMatchObject([{ message: 'Approve this action?', typed: false }]);
      });

      test('options', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'set_priority',
          answers: [{ value: 'high' }],
        });
        expect(arrived(result)).toEqual({ action: 'accept', data: 'high' });
        expect(asked[0]?.schema).toMatchObject({
          properties: { value: { enum: ['low', 'medium', 'high'] } },
        });
      });

      test('titled options', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'set_priority_titled',
          answers: [{ fields: { value: 'medium' } }],
        });
        expect(arrived(result)).toEqual({ action: 'accept', data: 'medium' });
        expect(asked[0]?.schema).toMatchObject({
          properties: { value: { oneOf: [{ const: 'low', title: 'Low Priority' }, {}, {}] } },
        });
      });

      test.each([
        ['select_tags', ['bug', 'documentation']],
        ['select_priorities', ['low', 'high']],
      ] as const)('multi-select: %s', async (name, choice) => {
        const { result } = await client.ok({ op: 'call_tool', name, answers: [{ value: choice }] });
        expect(arrived(result)).toEqual({ action: 'accept', data: choice });
      });

      test("an object, answered with FastMCP's typed response_type(**fields)", async () => {
        const { result } = await client.ok({
          op: 'call_tool',
          name: 'collect_user_info',
          answers: [{ fields: { name: 'Ada', age: 36 } }],
        });
        expect(arrived(result)).toEqual({ action: 'accept', data: { name: 'Ada', age: 36 } });
      });

      test('defaults: fields left out take the schema defaults', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'create_task',
          answers: [{ fields: { title: 'Write docs' } }],
        });
        expect(arrived(result)).toEqual({
          action: 'accept',
          data: { title: 'Write docs', description: '', priority: 'medium' },
        });
        expect(asked[0]?.schema).toMatchObject({
          properties: { description: { default: '' }, priority: { default: 'medium' } },
        });
      });

      test('multi-turn: three questions', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'plan_meeting',
          answers: [{ value: 'Standup' }, { value: 15 }, { value: 'yes' }],
        });
        expect(result.content).toEqual([
          { type: 'text', text: "Meeting 'Standup' for 15 minutes (Urgent: true)" },
        ]);
        expect(asked.map((a) => a.message)).toEqual([
          "What's the meeting title?",
          'Duration in minutes?',
          'Is this urgent?',
        ]);
      });

      test.each(['decline', 'cancel'] as const)(
        '%s reaches the tool as an answer',
        async (action) => {
          const { result } = await client.ok({
            op: 'call_tool',
            name: 'get_user_name',
            answers: [{ action }],
          });
          expect(arrived(result)).toEqual({ action });
        },
      );

      test('URL mode', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'connect_account',
          answers: [{ action: 'accept' }],
        });
        expect(arrived(result)).toEqual({ action: 'accept' });
        expect(asked).toMatchObject([
          { message: 'Sign in to Example', url: 'https://auth.example.com/connect' },
        ]);
      });

      test('elicitation, roots and sampling in one call', async () => {
        const { result } = await client.ok({
          op: 'call_tool',
          name: 'survey_workspace',
          answers: [{ value: 'an audit' }],
        });
        expect(arrived(result)).toEqual({
          purpose: 'an audit',
          roots: ['file:///home/me/project'],
          summary: 'A TypeScript monorepo.',
          // Modern: one round of three requests, answered together, then the final run.
          round: era === 'modern' ? 2 : 1,
        });
      });

      test('a prompt that asks', async () => {
        const { result } = await client.ok({
          op: 'get_prompt',
          name: 'summarize',
          answers: [{ value: 'Q3' }],
        });
        expect(result.messages).toEqual([
          { role: 'user', content: { type: 'text', text: 'Summarize the Q3 results.' } },
        ]);
      });

      test('a resource that asks', async () => {
        const { result } = await client.ok({
          op: 'read_resource',
          name: 'report://summary',
          answers: [{ value: 'Q4' }],
        });
        expect(result).toMatchObject([{ uri: 'report://summary', text: 'Revenue report for Q4' }]);
      });

      test('a wrong answer is asked again, saying what was wrong, then accepted', async () => {
        const { result, asked } = await client.ok({
          op: 'call_tool',
          name: 'pick_a_number',
          answers: [{ raw: { value: 'many' } }, { value: 7 }],
        });
        expect(arrived(result)).toEqual({ action: 'accept', data: 7 });
        expect(asked).toHaveLength(2);
        expect(asked[1]?.message).toBe(
          'Pick a number!\n\nYour last answer could not be used. Expected an integer, got the string "many".',
        );
      });

      test('a wrong answer, again and again, is refused with an error naming the ask and the field', async () => {
        const wrong = { raw: { value: 'many' } };
        const reply = await client.send({
          op: 'call_tool',
          name: 'pick_a_number',
          answers: [wrong, wrong, wrong, wrong, wrong],
        });
        expect(reply.ok).toBe(false);
        if (reply.ok) return;
        // A JSON-RPC error (FastMCP raises it as MCPError), after the first ask and three re-asks.
        expect(reply.type).toBe('MCPError');
        expect(reply.error).toMatch(
          /^Invalid answer to 'answer' in field 'value': expected an integer, got a string$/,
        );
        expect(reply.asked).toHaveLength(4);
      });

      if (era === 'modern') {
        test('the guard pattern, written out: two rounds', async () => {
          const { result, asked } = await client.ok({
            op: 'call_tool',
            name: 'book_flight',
            answers: [{ fields: { destination: 'Paris' } }, { fields: { date: '2026-08-01' } }],
          });
          expect(result.content).toEqual([
            { type: 'text', text: 'Booked a flight to Paris on 2026-08-01' },
          ]);
          expect(asked.map((a) => a.message)).toEqual([
            'Where would you like to fly?',
            'When would you like to fly to Paris?',
          ]);
        });
      } else {
        test("the guard pattern on a handshake connection: Parley's era error", async () => {
          const reply = await client.send({ op: 'call_tool', name: 'book_flight' });
          expect(reply.ok).toBe(false);
          if (!reply.ok) expect(reply.error).toContain('2026-07-28');
        });
      }
    });
  },
);
