import type { AddressInfo } from 'node:net';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import express from 'express';
import Fastify from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import * as z from 'zod';

import {
  ParleyServer,
  elicitRequest,
  inputRequired,
  isModernVersion,
  type ElicitationResult,
} from '../../src/index.ts';
import { textOf } from '../helpers/sdkClients.ts';

/**
 * `mcp.nodeHandler()` inside real Express and Fastify apps, over a real socket on 127.0.0.1:
 * both eras through the host's router, with the host's own JSON body parsing or without it,
 * the host's other routes untouched, and bad input answered by Parley in JSON-RPC.
 */

const askPeople = elicitRequest('How many people?', z.number().int().min(1).max(12));

function server(): ParleyServer {
  const mcp = new ParleyServer({ name: 'embedded', onWarning: () => {}, onError: () => {} });
  mcp.tool('book_table', async (_args, ctx) => {
    let people: ElicitationResult<number>;
    if (isModernVersion(ctx.requestContext.protocolVersion)) {
      const answer = ctx.answer('people', askPeople);
      if (answer === undefined) return inputRequired({ inputRequests: { people: askPeople } });
      people = answer;
    } else {
      people = await ctx.elicit('How many people?', z.number().int().min(1).max(12));
    }
    return people.action === 'accept' ? `Table for ${people.data}` : 'No table';
  });
  return mcp;
}

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

interface ModernReply {
  result?: { resultType?: string; requestState?: string; content?: { text: string }[] };
  error?: { code: number; message: string };
}

async function modernRound(url: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'book_table',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'book_table',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
        ...extra,
      },
    }),
  });
  return { status: response.status, body: (await response.json()) as ModernReply };
}

/** Both eras through the host, and what the host serves besides. */
async function servesBothEras(base: string): Promise<void> {
  const url = `${base}/mcp`;
  // Modern: two rounds, the second with the answer and the sealed state.
  const first = await modernRound(url);
  expect(first.status).toBe(200);
  expect(first.body.result?.resultType).toBe('input_required');
  const second = await modernRound(url, {
    inputResponses: { people: { action: 'accept', content: { value: 4 } } },
    requestState: first.body.result?.requestState,
  });
  expect(second.body.result?.content?.[0]?.text).toBe('Table for 4');

  // Handshake: a session, ctx.elicit over the call's SSE stream, DELETE at the end.
  const client = new Client(
    { name: 'embedded', version: '1' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', () => ({
    action: 'accept',
    content: { value: 3 },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  expect(textOf(await client.callTool({ name: 'book_table', arguments: {} }))).toBe('Table for 3');
  await transport.terminateSession();
  await client.close();

  // Bad JSON is Parley's to answer (or the host's parser's): a 4xx, never a 5xx.
  const bad = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{"jsonrpc":',
  });
  expect(bad.status).toBeGreaterThanOrEqual(400);
  expect(bad.status).toBeLessThan(500);

  // The host's own routes are the host's.
  const health = await fetch(`${base}/health`);
  expect(await health.text()).toBe('ok');
}

async function listenExpress(app: express.Express): Promise<string> {
  const listener = await new Promise<ReturnType<express.Express['listen']>>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  stops.push(
    () =>
      new Promise((resolve) => {
        listener.closeAllConnections();
        listener.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
}

describe('Express 5', () => {
  test('app.all("/mcp", mcp.nodeHandler()): the handler reads the body itself', async () => {
    const app = express();
    app.get('/health', (_req, res) => void res.send('ok'));
    app.all('/mcp', server().nodeHandler());
    await servesBothEras(await listenExpress(app));
  });

  test('behind express.json(): the parsed body is passed on', async () => {
    const app = express();
    const handler = server().nodeHandler();
    app.get('/health', (_req, res) => void res.send('ok'));
    app.use(express.json());
    app.all('/mcp', (req, res) => void handler(req, res, req.body));
    await servesBothEras(await listenExpress(app));
  });
});

describe('Fastify 5', () => {
  test('a route that hands Fastify’s raw request and reply to mcp.nodeHandler()', async () => {
    const app = Fastify();
    const handler = server().nodeHandler();
    app.get('/health', async () => 'ok');
    app.all('/mcp', async (request, reply) => {
      // Parley writes the response itself: Fastify must not.
      reply.hijack();
      await handler(request.raw, reply.raw, request.body);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    stops.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    await servesBothEras(`http://127.0.0.1:${port}`);
  });
});
