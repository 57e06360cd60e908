import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { Client, type ElicitationAnswer, type RoundEvent } from '@parley/client';
import { ParleyProxy } from '@parley/proxy';
import type { RunningServer as ParleyRunning } from '@parley/server';

import { FastmcpClient } from './fastmcpClient.ts';
import { createPeerServer } from './parleyServer.ts';
import { startHttpServer, type RunningServer } from './processes.ts';
import { fastmcpPython, findPython, pythonDir } from './pythonPeer.ts';

/**
 * FastMCP (Python) on either side of `ParleyProxy`, across the eras, over HTTP on 127.0.0.1 and
 * real processes: FastMCP's server as a handshake-era upstream in front of a modern Parley
 * client (the proxy holds each upstream call open between the client's rounds), and FastMCP's
 * handshake-era client in front of a Parley upstream the proxy drives in the modern era (each
 * `inputRequests` entry goes to FastMCP's client as a real elicitation/create), once with the
 * proxy in-process and once as `parley proxy` over stdio, started by FastMCP's client.
 */

// parleyClient.test.ts prints the line when the suite is skipped.
const base = findPython('FastMCP peer suite', { quiet: true });
const proxyOptions = {
  server: {
    requestStateSecurity: { allowEphemeralKeys: true },
    // The proxy lints the schemas it relays (FastMCP's unlabelled "value"); not under test here.
    onWarning: () => {},
  },
};

/** What a tool reported receiving, from its first text content. */
function arrived(result: { content?: unknown }): unknown {
  const content = result.content as { text?: string }[];
  return JSON.parse(content[0]?.text ?? '');
}

describe.skipIf(base === undefined)('a FastMCP 4.0.10 server behind the proxy', () => {
  let fastmcp: RunningServer | undefined;
  let proxy: ParleyProxy;
  let proxied: ParleyRunning | undefined;
  let client: Client;
  let answers: Record<string, ElicitationAnswer> = {};
  let rounds: RoundEvent[] = [];
  /** What the proxy's client said about the schemas FastMCP sent. */
  const upstreamWarnings: string[] = [];

  beforeAll(async () => {
    const python = await fastmcpPython(base!);
    fastmcp = await startHttpServer(python, ['-B', join(pythonDir, 'server.py'), 'http']);
    // FastMCP's server asks with elicitation/create: the handshake era, held open upstream.
    proxy = new ParleyProxy({
      upstream: fastmcp.url,
      upstreamMode: 'handshake',
      onUpstreamWarning: (message) => upstreamWarnings.push(message),
      ...proxyOptions,
    });
    proxied = await proxy.run({ transport: 'http', host: '127.0.0.1', port: 0 });
    client = new Client(proxied.url!, {
      mode: 'modern',
      elicitationHandler: (message) => {
        const answer = answers[message];
        if (answer === undefined) throw new Error(`unexpected question: ${message}`);
        return answer;
      },
      samplingHandler: () => 'A TypeScript monorepo.',
      roots: [{ uri: 'file:///home/me/project', name: 'project' }],
      onRound: (event) => rounds.push(event),
    });
    await client.connect();
  }, 20 * 60_000);

  afterAll(async () => {
    await client?.close();
    await proxied?.close();
    await fastmcp?.close();
  });

  beforeEach(() => {
    answers = {};
    rounds = [];
  });

  test('the client speaks the modern era to the proxy', () => {
    expect(client.protocolVersion).toBe('2026-07-28');
  });

  /** Every round the client went through was an InputRequiredResult, and it asked `messages`. */
  function expectModernRounds(messages: string[]): void {
    expect(rounds.map((round) => round.era)).toEqual(messages.map(() => 'modern'));
    expect(rounds.map((round) => round.round)).toEqual(messages.map((_, index) => index + 1));
    const asked = rounds.flatMap((round) =>
      Object.values(round.asked).map((request) => (request.params as { message?: string }).message),
    );
    expect(asked).toEqual(messages);
  }

  test('a scalar', async () => {
    answers['Pick a number!'] = 42;
    expect(arrived(await client.callTool('pick_a_number', {}))).toEqual({
      action: 'accept',
      data: 42,
    });
    expectModernRounds(['Pick a number!']);
  });

  test('options, and a multi-select whose items have no type (relayed as read)', async () => {
    answers['What priority level?'] = 'high';
    expect(arrived(await client.callTool('set_priority', {}))).toEqual({
      action: 'accept',
      data: 'high',
    });
    expectModernRounds(['What priority level?']);
    rounds = [];
    answers['Choose tags'] = ['bug', 'documentation'];
    expect(arrived(await client.callTool('select_tags', {}))).toEqual({
      action: 'accept',
      data: ['bug', 'documentation'],
    });
    expectModernRounds(['Choose tags']);
    // The proxy's upstream client reads FastMCP's `items: { enum }` as strings and relays the
    // schema it read, so the modern client downstream gets a conforming one.
    expect(rounds[0]?.asked['ask-1']?.params).toMatchObject({
      requestedSchema: { properties: { value: { items: { type: 'string' } } } },
    });
    // And says so to the proxy's operator, naming the upstream and the field.
    expect(upstreamWarnings).toContainEqual(
      expect.stringMatching(
        /^server "FastMCP Elicitation Peer" sent field "value" without items\.type/,
      ),
    );
  });

  test('a structured object (a dataclass)', async () => {
    answers['Please provide your information'] = { name: 'Ada', age: 36 };
    expect(arrived(await client.callTool('collect_user_info', {}))).toEqual({
      action: 'accept',
      data: { type: 'UserInfo', name: 'Ada', age: 36 },
    });
    expectModernRounds(['Please provide your information']);
  });

  test.each(['decline', 'cancel'] as const)('%s reaches the tool as an answer', async (action) => {
    answers["What's your name?"] = { action };
    expect(arrived(await client.callTool('get_user_name', {}))).toEqual({ action });
    expectModernRounds(["What's your name?"]);
  });

  test('multi-turn: three asks of one held call, three rounds', async () => {
    answers["What's the meeting title?"] = 'Standup';
    answers['Duration in minutes?'] = 15;
    answers['Is this urgent?'] = 'yes';
    const result = await client.callTool('plan_meeting', {});
    expect(result.content).toEqual([
      { type: 'text', text: "Meeting 'Standup' for 15 minutes (Urgent: True)" },
    ]);
    expectModernRounds(["What's the meeting title?", 'Duration in minutes?', 'Is this urgent?']);
  });

  test('elicitation, roots and sampling asked in turn upstream, each a round downstream', async () => {
    answers['What are you working on?'] = 'an audit';
    expect(arrived(await client.callTool('survey_workspace', {}))).toMatchObject({
      purpose: 'an audit',
      roots: ['file:///home/me/project'],
      summary: 'A TypeScript monorepo.',
    });
    expect(rounds.map((round) => Object.values(round.asked).map((ask) => ask.method))).toEqual([
      ['elicitation/create'],
      ['roots/list'],
      ['sampling/createMessage'],
    ]);
  });

  test('every upstream call held between rounds was resumed and finished', () => {
    expect(proxy.heldCalls).toBe(0);
  });
});

const cliMain = fileURLToPath(new URL('../../../packages/cli/src/main.ts', import.meta.url));
/** Node running the repository's TypeScript from source, as FastMCP's stdio transport starts it. */
const fromSource = ['--conditions=@parley/source', '--import', 'tsx'];

describe.skipIf(base === undefined)(
  "FastMCP 4.0.10's handshake-era client in front of a Parley upstream driven in the modern era",
  () => {
    let upstream: ParleyRunning | undefined;
    let proxied: ParleyRunning | undefined;
    const clients = new Map<'in-process' | 'cli' | 'no proxy', FastmcpClient>();

    beforeAll(async () => {
      const python = await fastmcpPython(base!);
      // No HTTP sessions: a handshake-era client cannot be asked anything here; only the modern
      // era (InputRequiredResult rounds) can ask.
      upstream = await createPeerServer({ http: { sessions: false } }).run({
        transport: 'http',
        host: '127.0.0.1',
        port: 0,
      });
      // 'modern': the proxy refuses to start unless the upstream speaks 2026-07-28 (no fallback).
      const proxy = new ParleyProxy({
        upstream: upstream.url!,
        upstreamMode: 'modern',
        ...proxyOptions,
      });
      proxied = await proxy.run({ transport: 'http', host: '127.0.0.1', port: 0 });
      const cli = {
        command: process.execPath,
        args: [...fromSource, cliMain, 'proxy', upstream.url!, '--mode', 'modern'],
      };
      const [direct, overStdio, noProxy] = await Promise.all([
        FastmcpClient.start(python, proxied.url!, 'legacy'),
        FastmcpClient.start(python, cli, 'legacy'),
        FastmcpClient.start(python, upstream.url!, 'legacy'),
      ]);
      clients.set('in-process', direct);
      clients.set('cli', overStdio);
      clients.set('no proxy', noProxy);
    }, 20 * 60_000);

    afterAll(async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
      await proxied?.close();
      await upstream?.close();
    });

    test('FastMCP connects to the proxy in the handshake era', () => {
      expect(clients.get('in-process')!.protocolVersion).toBe('2025-11-25');
      expect(clients.get('cli')!.protocolVersion).toBe('2025-11-25');
    });

    test('without the proxy, the same client cannot be asked by this upstream', async () => {
      const reply = await clients.get('no proxy')!.send({
        op: 'call_tool',
        name: 'get_user_name',
        answers: [{ value: 'Ada' }],
      });
      // This upstream keeps no sessions, so it cannot push a question to a handshake-era client.
      expect(reply).toMatchObject({
        ok: false,
        error: expect.stringMatching(/need an MCP session/),
      });
      expect(reply.asked).toEqual([]);
    });

    test.each([
      ['get_user_name', { value: 'Ada' }, 'Ada', { type: 'string' }],
      ['set_priority', { value: 'high' }, 'high', { enum: ['low', 'medium', 'high'] }],
      ['select_tags', { value: ['bug', 'feature'] }, ['bug', 'feature'], { type: 'array' }],
    ] as const)('one ask: %s', async (name, answer, data, property) => {
      const client = clients.get('in-process')!;
      const { result, asked } = await client.ok({ op: 'call_tool', name, answers: [answer] });
      expect(arrived(result)).toEqual({ action: 'accept', data });
      expect(asked).toMatchObject([{ typed: true, schema: { properties: { value: property } } }]);
    });

    test('a structured object, answered with FastMCP typed fields', async () => {
      const { result, asked } = await clients.get('in-process')!.ok({
        op: 'call_tool',
        name: 'collect_user_info',
        answers: [{ fields: { name: 'Ada', age: 36 } }],
      });
      expect(arrived(result)).toEqual({ action: 'accept', data: { name: 'Ada', age: 36 } });
      expect(asked[0]?.schema).toMatchObject({ required: ['name', 'age'] });
    });

    test.each(['decline', 'cancel'] as const)('%s reaches the Parley tool', async (action) => {
      const { result } = await clients.get('in-process')!.ok({
        op: 'call_tool',
        name: 'get_user_name',
        answers: [{ action }],
      });
      expect(arrived(result)).toEqual({ action });
    });

    test('multi-turn: three rounds upstream, three elicitations downstream', async () => {
      const { result, asked } = await clients.get('in-process')!.ok({
        op: 'call_tool',
        name: 'plan_meeting',
        answers: [{ value: 'Standup' }, { value: 15 }, { value: 'yes' }],
      });
      expect(result.content).toMatchObject([
        { text: "Meeting 'Standup' for 15 minutes (Urgent: true)" },
      ]);
      expect(asked.map((ask) => ask.message)).toEqual([
        "What's the meeting title?",
        'Duration in minutes?',
        'Is this urgent?',
      ]);
    });

    // Written with inputRequired() only: Parley refuses it on a handshake connection, so its
    // answer proves the proxy spoke the modern era upstream.
    test.each(['in-process', 'cli'] as const)(
      'the guard pattern (modern only), proxy %s',
      async (which) => {
        const { result, asked } = await clients.get(which)!.ok({
          op: 'call_tool',
          name: 'book_flight',
          answers: [{ fields: { destination: 'Paris' } }, { fields: { date: '2026-08-01' } }],
        });
        expect(result.content).toMatchObject([{ text: 'Booked a flight to Paris on 2026-08-01' }]);
        expect(asked.map((ask) => ask.message)).toEqual([
          'Where would you like to fly?',
          'When would you like to fly to Paris?',
        ]);
      },
    );

    test('the proxy as the CLI over stdio: elicitation, roots and sampling in one round', async () => {
      const { result, asked } = await clients.get('cli')!.ok({
        op: 'call_tool',
        name: 'survey_workspace',
        answers: [{ value: 'an audit' }],
      });
      expect(arrived(result)).toEqual({
        purpose: 'an audit',
        roots: ['file:///home/me/project'],
        summary: 'A TypeScript monorepo.',
        round: 2,
      });
      expect(asked).toMatchObject([{ message: 'What are you working on?' }]);
    });
  },
);
