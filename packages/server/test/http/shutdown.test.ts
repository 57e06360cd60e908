import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';

import { ParleyServer, type RunningServer } from '../../src/index.ts';
import { rawRequest } from '../helpers/rawHttp.ts';

/**
 * Graceful shutdown over a real socket: readiness turns 503 first, the listener stops once a
 * load balancer has seen it, in-flight requests finish (with `Connection: close`), idle
 * connections close, a handshake-era call waiting on its client fails fast with a JSON-RPC
 * error, and whatever is left is closed when the grace is up. `closeOnSignals` does it on
 * SIGTERM in a real process.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function server(): ParleyServer {
  const mcp = new ParleyServer({ name: 'draining', onWarning: () => {}, onError: () => {} });
  mcp.tool('slow', { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }) => {
    await sleep(ms);
    return `slept ${ms} ms`;
  });
  mcp.tool('ask', async (_args, ctx) => {
    const answer = await ctx.elicit('Anything?', z.object({ text: z.string() }));
    return answer.action;
  });
  mcp.tool('forever', () => new Promise<string>(() => {}));
  return mcp;
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function modernCall(url: string, name: string, args: Record<string, unknown> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: META },
    }),
  });
}

const readiness = (url: string) => fetch(new URL('/ready', url));

async function start(): Promise<{ running: RunningServer; url: string; port: number }> {
  const running = await server().run({ transport: 'http', port: 0 });
  const url = running.url as string;
  return { running, url, port: Number(new URL(url).port) };
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
  });
}

describe('close({ graceMs })', () => {
  test('readiness turns 503 first; in-flight requests finish with Connection: close; then new connections are refused', async () => {
    const { running, url } = await start();
    expect((await readiness(url)).status).toBe(200);
    const inFlight = modernCall(url, 'slow', { ms: 600 });
    await sleep(50);
    const closed = running.close({ graceMs: 5_000 });
    await sleep(50);
    const unready = await readiness(url);
    expect(unready.status).toBe(503);
    expect(await unready.json()).toEqual({ status: 'draining' });
    // Until the balancer has stopped sending, requests are still served, each told to close.
    const during = await modernCall(url, 'slow', { ms: 1 });
    expect(during.status).toBe(200);
    expect(during.headers.get('connection')).toBe('close');
    const finished = await inFlight;
    expect(finished.status).toBe(200);
    expect(finished.headers.get('connection')).toBe('close');
    expect(JSON.stringify(await finished.json())).toContain('slept 600 ms');
    await closed;
    await expect(readiness(url)).rejects.toThrow();
  });

  test('idle keep-alive connections are closed once the drain has been quiet', async () => {
    const { running, port } = await start();
    const socket = await openSocket(port);
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // (not the readiness path: a client of that would be a load balancer, waited for)
    socket.write(rawRequest('GET /elsewhere HTTP/1.1', [['Host', `127.0.0.1:${port}`]]));
    await new Promise((resolve) => socket.once('data', resolve));
    const started = Date.now();
    await running.close({ graceMs: 5_000 });
    await ended;
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test('a request written on an idle keep-alive connection just after close() begins is answered, then the connection closes', async () => {
    // What a proxy does (nginx with upstream keepalive): it reuses an idle connection without
    // knowing the replica began to drain. Nobody probed readiness, so the drain is at once.
    const { running, port } = await start();
    const socket = await openSocket(port);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow', arguments: { ms: 1 }, _meta: META },
    });
    const request = rawRequest(
      'POST /mcp HTTP/1.1',
      [
        ['Host', `127.0.0.1:${port}`],
        ['Content-Type', 'application/json'],
        ['Accept', 'application/json, text/event-stream'],
        ['MCP-Protocol-Version', '2026-07-28'],
        ['Mcp-Method', 'tools/call'],
        ['Mcp-Name', 'slow'],
        ['Content-Length', String(Buffer.byteLength(body))],
      ],
      body,
    );
    socket.write(request);
    await sleep(100); // the first answer arrives; the connection is idle, kept alive
    expect(Buffer.concat(received).toString()).toMatch(/^HTTP\/1\.1 200/);
    received.length = 0;
    const closed = running.close({ graceMs: 5_000 });
    await sleep(20);
    socket.write(request);
    await ended;
    const answer = Buffer.concat(received).toString();
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('slept 1 ms');
    await closed;
  });

  test('a handshake-era call waiting on its client gets a JSON-RPC error at once', async () => {
    const { running, url } = await start();
    const client = new Client(
      { name: 'waiting', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    // The person never answers.
    client.setRequestHandler('elicitation/create', () => {
      asked();
      return new Promise(() => {});
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const call = client.callTool({ name: 'ask', arguments: {} });
    await wasAsked;
    const started = Date.now();
    const closed = running.close({ graceMs: 10_000 });
    await expect(call).rejects.toThrow(/server is shutting down/);
    expect(Date.now() - started).toBeLessThan(2_000);
    await closed;
    expect(Date.now() - started).toBeLessThan(5_000);
    await client.close().catch(() => {});
  });

  test('a session notification stream opened during the drain ends at once, not at the end of grace', async () => {
    const { running, url } = await start();
    expect((await readiness(url)).status).toBe(200); // a load balancer is watching
    const client = new Client({ name: 'listening', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    const sessionId = transport.sessionId!;
    await transport.close(); // its GET stream goes; the session stays
    await sleep(50);
    const started = Date.now();
    const closed = running.close({ graceMs: 10_000 });
    expect((await readiness(url)).status).toBe(503);
    // The client reconnects its GET stream while the balancer has not yet stopped sending.
    const stream = await fetch(url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('connection')).toBe('close');
    await stream.text(); // ends
    await closed;
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  test('whatever is still running when the grace is up is closed', async () => {
    const { running, url } = await start();
    const stuck = modernCall(url, 'forever').then(
      (response) => response.status,
      () => 'closed',
    );
    await sleep(50);
    const started = Date.now();
    await running.close({ graceMs: 300 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await stuck).toBe('closed');
  });

  test('graceMs is checked', async () => {
    const { running } = await start();
    await expect(running.close({ graceMs: -1 })).rejects.toThrow(
      'close: graceMs must be a whole number >= 0 (got -1).',
    );
    await running.close({ graceMs: 0 });
  });
});

describe('closeOnSignals', () => {
  test('SIGTERM drains the server (the call in flight completes) and the process exits 0', async () => {
    const main = fileURLToPath(new URL('../fixtures/drainingMain.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--conditions=@parley/source', '--import', 'tsx', main],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const stderr: string[] = [];
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) =>
      stderr.push(line),
    );
    const url = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve),
    );
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    const inFlight = modernCall(url, 'slow', { ms: 500 });
    await sleep(100);
    child.kill('SIGTERM');
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(JSON.stringify(await response.json())).toContain('slept 500 ms');
    expect(await exited).toBe(0);
    expect(stderr.join('\n')).toMatch(
      /\[parley\] SIGTERM: draining \(up to 5000 ms\), then exiting/,
    );
  });

  test('refuses what is not a running server', async () => {
    const { closeOnSignals } = await import('../../src/index.ts');
    expect(() => closeOnSignals({} as never)).toThrow(
      'closeOnSignals: pass the server run() returned.',
    );
  });
});
