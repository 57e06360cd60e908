import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ASK_KEY_META, askKeyOf, type ElicitResult } from '@parley/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  ParleyServer,
  elicitRequest,
  rootsRequest,
  sampleRequest,
  type RunningServer,
} from '../src/index.ts';
import { modernRequestInit } from './helpers/rawModern.ts';

/**
 * Issues #39 and #40: which ask a handshake-era request is for. A modern client reads each
 * question's key off `inputRequests`; a handshake-era client gets a server-initiated request
 * whose JSON-RPC id says nothing, so Parley puts the same key in the request's
 * `_meta['dev.parley/askKey']`, and a refusal names the ask by that key in both eras. A real
 * server on 127.0.0.1; the handshake era through a real MCP SDK v2 client, the modern era's
 * `inputRequests` read off the raw wire.
 */

const askCurrency = elicitRequest(
  'Which currency for the report?',
  { EUR: { title: 'Euro' }, USD: { title: 'US dollar' } },
  { responseTitle: 'Currency' },
);
const askBreakdown = elicitRequest('Include the quarterly breakdown?', Boolean, {
  responseTitle: 'Breakdown',
});
const askSummary = sampleRequest('Summarise the figures in one line.', { maxTokens: 40 });
const askNumber = elicitRequest('Pick a number!', z.number().int());

function createServer(): ParleyServer {
  const mcp = new ParleyServer({
    name: 'ask-keys',
    maxReasks: 1,
    onWarning: () => {},
    onError: () => {},
    requestStateSecurity: { allowEphemeralKeys: true },
  });
  // Every kind of ask in one round, each under its key.
  mcp.tool('report', async (_args, ctx) => {
    const { currency, breakdown, summary, workspace } = await ctx.askAll({
      currency: askCurrency,
      breakdown: askBreakdown,
      summary: askSummary,
      workspace: rootsRequest(),
    });
    return JSON.stringify([currency.action, breakdown.action, summary.model, workspace.length]);
  });
  mcp.tool('pick', async (_args, ctx) => {
    const picked = await ctx.ask('answer', askNumber);
    return picked.action === 'accept' ? `Picked ${picked.data}` : 'Nothing picked';
  });
  // The handshake era's own methods, which take no key: they carry the one a task gives them.
  mcp.tool('legacy', async (_args, ctx) => {
    const shipped = await ctx.elicit('Ship it?', Boolean, { responseTitle: 'Ship' });
    const sampled = await ctx.sample('Say hi.', { maxTokens: 5 });
    const roots = await ctx.listRoots();
    return JSON.stringify([shipped.action, sampled.model, roots.length]);
  });
  return mcp;
}

let running: RunningServer;
beforeAll(async () => {
  running = await createServer().run({ transport: 'http', host: '127.0.0.1', port: 0 });
});
afterAll(() => running.close({ graceMs: 0 }));

interface Pushed {
  method: string;
  key: string | undefined;
  meta: Record<string, unknown> | undefined;
}

/**
 * A 2025-11-25 SDK client that answers every pushed request (forms with `answer`), keeping the
 * method and the `_meta` of each as it arrived.
 */
async function handshakeClient(
  answer: (params: Record<string, unknown>) => ElicitResult,
): Promise<{ client: Client; pushed: Pushed[] }> {
  const pushed: Pushed[] = [];
  const client = new Client(
    { name: 'ask-keys-client', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: 'legacy' },
    },
  );
  const seen = (method: string, params: unknown): void => {
    const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
    pushed.push({ method, key: askKeyOf(params), meta });
  };
  client.setRequestHandler('elicitation/create', async (request) => {
    seen(request.method, request.params);
    return answer(request.params as Record<string, unknown>) as never;
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    seen(request.method, request.params);
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'hi' } };
  });
  client.setRequestHandler('roots/list', async (request) => {
    seen(request.method, request.params);
    return { roots: [{ uri: 'file:///reports', name: 'reports' }] };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string)));
  return { client, pushed };
}

/** One raw 2026-07-28 `tools/call` over the socket: its result or its error. */
async function modernCall(
  name: string,
  extra: Record<string, unknown> = {},
): Promise<{
  result?: { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: string };
  error?: { message: string };
}> {
  const capabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
  const init = modernRequestInit('tools/call', { name, arguments: {}, ...extra }, capabilities);
  const response = await fetch(running.url as string, init);
  return (await response.json()) as never;
}

function textOf(result: unknown): string {
  const content = (result as { content?: { text?: string }[] }).content ?? [];
  return content.map((block) => block.text ?? '').join('');
}

describe('the ask key on a pushed request', () => {
  test('each pushed request carries its ask key in _meta, the key the modern era asks it under', async () => {
    const modern = await modernCall('report');
    expect(modern.result?.resultType).toBe('input_required');
    const modernKeys = Object.keys(modern.result?.inputRequests ?? {});
    expect(modernKeys).toEqual(['currency', 'breakdown', 'summary', 'workspace']);

    const { client, pushed } = await handshakeClient((params) =>
      String(params.message).startsWith('Which currency')
        ? { action: 'accept', content: { value: 'USD' } }
        : { action: 'decline' },
    );
    try {
      const result = await client.callTool({ name: 'report', arguments: {} });
      expect(textOf(result)).toBe('["accept","decline","test-model",1]');
      expect(pushed.map(({ method, key }) => [method, key])).toEqual([
        ['elicitation/create', 'currency'],
        ['elicitation/create', 'breakdown'],
        ['sampling/createMessage', 'summary'],
        ['roots/list', 'workspace'],
      ]);
      expect(pushed.map(({ key }) => key)).toEqual(modernKeys);
      expect(pushed[0]!.meta).toEqual({ [ASK_KEY_META]: 'currency' });
    } finally {
      await client.close();
    }
  });

  test('a re-ask keeps the key of the ask it repeats', async () => {
    const answers: ElicitResult[] = [
      { action: 'accept', content: { value: 'many' } },
      { action: 'accept', content: { value: 7 } },
    ];
    const { client, pushed } = await handshakeClient(() => answers.shift()!);
    try {
      const result = await client.callTool({ name: 'pick', arguments: {} });
      expect(textOf(result)).toBe('Picked 7');
      expect(pushed.map(({ key }) => key)).toEqual(['answer', 'answer']);
    } finally {
      await client.close();
    }
  });

  test('ctx.elicit, ctx.sample and ctx.listRoots carry the keys a task gives them', async () => {
    const { client, pushed } = await handshakeClient(() => ({
      action: 'accept',
      content: { value: true },
    }));
    try {
      const result = await client.callTool({ name: 'legacy', arguments: {} });
      expect(textOf(result)).toBe('["accept","test-model",1]');
      expect(pushed.map(({ method, key }) => [method, key])).toEqual([
        ['elicitation/create', 'elicitation'],
        ['sampling/createMessage', 'sampling'],
        ['roots/list', 'roots'],
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('a refused answer names the ask the same way in both eras', () => {
  const wrong: ElicitResult = { action: 'accept', content: { value: 'many' } };
  const expected = "Invalid answer to 'answer' in field 'value': expected an integer";

  test('modern era: after the re-ask, the error names the key and the field', async () => {
    const first = await modernCall('pick');
    const again = await modernCall('pick', {
      inputResponses: { answer: wrong },
      requestState: first.result?.requestState,
    });
    expect(Object.keys(again.result?.inputRequests ?? {})).toEqual(['answer']);
    const refused = await modernCall('pick', {
      inputResponses: { answer: wrong },
      requestState: again.result?.requestState,
    });
    expect(refused.error?.message).toMatch(new RegExp(`^${expected}`));
  });

  test('handshake era: the same words', async () => {
    const { client, pushed } = await handshakeClient(() => wrong);
    try {
      const refused = await client
        .callTool({ name: 'pick', arguments: {} })
        .then(textOf, (error: unknown) => (error as Error).message);
      expect(refused).toMatch(new RegExp(`${expected}`));
      expect(pushed.map(({ key }) => key)).toEqual(['answer', 'answer']);
    } finally {
      await client.close();
    }
  });
});
