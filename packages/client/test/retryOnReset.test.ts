import { createServer as createHttpServer, type Server } from 'node:http';
import { createConnection, createServer as createTcpServer, type AddressInfo } from 'node:net';

import { createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { retryOnReset } from '../src/http/retryOnReset.ts';
import { Client } from '../src/index.ts';
import { buildSdkV2Server, freshSeen } from './helpers/sdkV2Server.ts';

/**
 * A request whose connection is lost before any answer (a kept-alive connection the server had
 * just closed as idle) is sent once more when it only reads, and never when it acts. Over real
 * sockets on 127.0.0.1: a raw SDK v2 server behind a TCP relay that cuts the connection of the
 * first request naming a chosen method, before the server sees it.
 */

let server: Server;
let relay: ReturnType<typeof createTcpServer>;
let cut: { method: string; cuts: number; seen: Record<string, number> } = {
  method: '',
  cuts: 0,
  seen: {},
};

beforeAll(async () => {
  const handler = createMcpHandler(() => buildSdkV2Server(freshSeen()), { legacy: 'reject' });
  server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, {
        method: req.method,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      void handler.fetch(request).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const upstream = (server.address() as AddressInfo).port;
  relay = createTcpServer((client) => {
    const target = createConnection(upstream, '127.0.0.1');
    let pending = '';
    client.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      const method = /"method":"([^"]+)"/.exec(pending)?.[1];
      if (method === undefined) {
        if (pending.length > 64 * 1024) pending = '';
        return;
      }
      cut.seen[method] = (cut.seen[method] ?? 0) + 1;
      if (method === cut.method && cut.cuts === 0) {
        cut.cuts += 1;
        client.resetAndDestroy();
        target.destroy();
        return;
      }
      target.write(pending, 'latin1');
      pending = '';
    });
    target.on('data', (chunk: Buffer) => client.write(chunk));
    target.on('close', () => client.destroy());
    client.on('close', () => target.destroy());
    client.on('error', () => target.destroy());
    target.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  relay.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function cutFirst(method: string): void {
  cut = { method, cuts: 0, seen: {} };
}

const url = () => `http://127.0.0.1:${(relay.address() as AddressInfo).port}/mcp`;

describe('a connection lost before any answer', () => {
  test('a read (the discovery probe) is sent once more, and the client connects', async () => {
    cutFirst('server/discover');
    await using client = new Client(url(), { mode: 'modern' });
    await client.connect();
    expect((await client.listTools()).map((tool) => tool.name)).toContain('book_trip');
    expect(cut.cuts).toBe(1);
    expect(cut.seen['server/discover']).toBe(2);
  });

  test('a listing is sent once more', async () => {
    await using client = new Client(url(), { mode: 'modern' });
    await client.connect();
    cutFirst('tools/list');
    expect((await client.listTools()).map((tool) => tool.name)).toContain('book_trip');
    expect(cut.seen['tools/list']).toBe(2);
  });

  test('a tool call is not sent again: its error reaches the caller', async () => {
    await using client = new Client(url(), {
      mode: 'modern',
      elicitationHandler: () => ({ action: 'decline' }),
    });
    await client.connect();
    cutFirst('tools/call');
    await expect(client.callTool('book_trip', {})).rejects.toThrow('fetch failed');
    expect(cut.seen['tools/call']).toBe(1);
  });
});

describe('retryOnReset', () => {
  const lost = Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
  });
  const listing = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

  function counting(error: unknown) {
    const calls: number[] = [];
    const fetch = retryOnReset(async () => {
      calls.push(calls.length);
      if (calls.length === 1) throw error;
      return new Response('{}');
    });
    return { fetch, calls };
  }

  test('retries a read once, and only a lost connection', async () => {
    const read = counting(lost);
    await read.fetch('http://x/mcp', { method: 'POST', body: listing });
    expect(read.calls).toHaveLength(2);

    const refused = counting(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    await expect(refused.fetch('http://x/mcp', { method: 'POST', body: listing })).rejects.toThrow(
      'refused',
    );
    expect(refused.calls).toHaveLength(1);
  });

  test('never retries what acts, what is not a JSON-RPC read, or what was aborted', async () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call' });
    for (const init of [
      { method: 'POST', body: call },
      { method: 'POST', body: 'not json' },
      { method: 'POST', body: JSON.stringify([{ jsonrpc: '2.0', id: 3, method: 'tools/list' }]) },
      { method: 'POST', body: listing, signal: AbortSignal.abort() },
    ]) {
      const attempt = counting(lost);
      await expect(attempt.fetch('http://x/mcp', init)).rejects.toBe(lost);
      expect(attempt.calls).toHaveLength(1);
    }
    // The session's stream and its end are the SDK transport's to reconnect or give up.
    for (const method of ['GET', 'DELETE']) {
      const attempt = counting(lost);
      await expect(attempt.fetch('http://x/mcp', { method })).rejects.toBe(lost);
      expect(attempt.calls).toHaveLength(1);
    }
  });
});
