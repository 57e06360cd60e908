import type { ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { playground } from '../../../scripts/apps.mjs';
import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from '../src/forwarderHeader.ts';
import { startApp } from './processes.ts';

/**
 * The forwarder against a hostile server: a raw TCP server on 127.0.0.1 that answers each path
 * with bytes no well-behaved MCP server sends (trailers where none may be, an upgrade, an HTML
 * page, silence, too much), and the playground as a child process with a short answer timeout.
 * Whatever the server does, the page gets MCP or a JSON error, and the playground keeps serving.
 */

const TIMEOUT_MS = 1000;
const MIB = 1024 * 1024;

/** One chunk of a chunked body. */
function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

/** What the hostile server writes for each path; `undefined` is silence. */
const answers: Record<string, (socket: Socket) => void> = {
  '/json': (socket) =>
    socket.end(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s-1\r\n' +
        'Set-Cookie: stolen=1\r\nContent-Length: 36\r\n\r\n{"jsonrpc":"2.0","id":1,"result":{}}',
    ),
  '/sse': (socket) =>
    socket.write(
      'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n' +
        chunk('event: message\ndata: {"a":1}\n\n'),
    ),
  '/trailer-length': (socket) =>
    socket.end(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTrailer: x-checksum\r\n' +
        'Content-Length: 2\r\n\r\n{}',
    ),
  '/trailer-sse': (socket) =>
    socket.end(
      'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTrailer: x-checksum\r\n' +
        'Content-Length: 11\r\n\r\ndata: {}\n\n\n',
    ),
  '/trailer-204': (socket) =>
    socket.end('HTTP/1.1 204 No Content\r\nTrailer: x-checksum\r\nConnection: close\r\n\r\n'),
  '/upgrade': (socket) =>
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nhi',
    ),
  '/html': (socket) => {
    const page = '<script>fetch("/mcp-proxy?target=x")</script>';
    socket.end(
      `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${page.length}\r\n\r\n${page}`,
    );
  },
  '/stall': () => {},
  '/stall-body': (socket) =>
    socket.write(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a',
    ),
  '/huge': (socket) => {
    socket.on('error', () => {});
    socket.write(
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${17 * MIB}\r\n\r\n`,
    );
    socket.end(Buffer.alloc(17 * MIB, 0x20));
  },
};

let hostile: Server;
/** The hostile server's connections, some of which it never ends. */
const sockets = new Set<Socket>();
let hostileUrl = '';
let playgroundUrl = '';
let child: ChildProcess;

beforeAll(async () => {
  hostile = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    // Answer once the whole request is in: a reply to half of it would be reset by the rest.
    let seen = '';
    const read = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      const end = seen.indexOf('\r\n\r\n');
      const length = Number(/content-length: *(\d+)/i.exec(seen)?.[1] ?? 0);
      if (end === -1 || seen.length < end + 4 + length) return;
      socket.off('data', read);
      answers[/^[A-Z]+ (\S+)/.exec(seen)?.[1] ?? '']?.(socket);
    };
    socket.on('data', read);
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  hostileUrl = `http://127.0.0.1:${(hostile.address() as { port: number }).port}`;
  const app = await startApp(playground.entry, {
    PLAYGROUND_PORT: '0',
    PLAYGROUND_SERVERS: '[]',
    PLAYGROUND_ANSWER_TIMEOUT_MS: String(TIMEOUT_MS),
  });
  child = app.child;
  playgroundUrl = app.url;
}, 60_000);

afterAll(() => {
  child?.kill('SIGTERM');
  for (const socket of sockets) socket.destroy();
  hostile?.close();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Send one request to the forwarder for the hostile server's `path`, as the page would by default. */
function forwarded(
  path: string,
  headers: Record<string, string> = { [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE },
  { firstChunk = false } = {},
): Promise<Answer> {
  const { port } = new URL(playgroundUrl);
  const target = encodeURIComponent(`${hostileUrl}${path}`);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: `/mcp-proxy?target=${target}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let body = '';
        const done = () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
          if (firstChunk) {
            done();
            request.destroy();
          }
        });
        response.on('end', done);
      },
    );
    request.on('error', reject);
    request.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  });
}

function expectSafe(answer: Answer): void {
  expect(answer.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
}

function errorOf(answer: Answer): string {
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  return (JSON.parse(answer.body) as { error: string }).error;
}

describe('the forwarder against a hostile server', () => {
  test('MCP JSON goes through with the protocol headers, and no cookie', async () => {
    const answer = await forwarded('/json');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(answer.headers['mcp-session-id']).toBe('s-1');
    expect(answer.headers['set-cookie']).toBeUndefined();
    expectSafe(answer);
  });

  test('an event stream flows as it comes, while the server keeps it open', async () => {
    const answer = await forwarded('/sse', undefined, { firstChunk: true });
    expect(answer.status, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.body).toBe('event: message\ndata: {"a":1}\n\n');
    expectSafe(answer);
  });

  test('a Trailer header with a Content-Length, or on a 204, is dropped, not a crash', async () => {
    const json = await forwarded('/trailer-length');
    expect([json.status, json.body, json.headers.trailer]).toEqual([200, '{}', undefined]);
    const sse = await forwarded('/trailer-sse');
    expect([sse.status, sse.body, sse.headers.trailer]).toEqual([200, 'data: {}\n\n\n', undefined]);
    const empty = await forwarded('/trailer-204');
    expect([empty.status, empty.body, empty.headers.trailer]).toEqual([204, '', undefined]);
  });

  test('a 101 upgrade is a 502 that says so, not a request left hanging', async () => {
    const answer = await forwarded('/upgrade');
    expect(answer.status).toBe(502);
    expect(errorOf(answer)).toMatch(/101 Switching Protocols/);
  });

  test('an HTML page is a JSON error: its bytes are never served on the playground origin', async () => {
    const answer = await forwarded('/html');
    expect(answer.status).toBe(502);
    expect(errorOf(answer)).toBe(
      'the server answered 200 with text/html, not MCP (application/json or text/event-stream); its body is not passed on',
    );
    expect(answer.body).not.toContain('<script');
    expectSafe(answer);
  });

  test('a navigation, a typed link or a request without the page header is a 403', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        'an Open link in the page',
        {
          [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE,
          'sec-fetch-site': 'same-origin',
          'sec-fetch-mode': 'navigate',
          'sec-fetch-dest': 'document',
        },
        /not a page to open/,
      ],
      ['a framed page', { 'sec-fetch-dest': 'iframe' }, /not a page to open/],
      [
        'a typed or pasted link',
        { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
        /not a none request/,
      ],
      [
        'no page header',
        { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
        /x-parley-playground: 1/,
      ],
    ];
    for (const [name, headers, message] of cases) {
      const answer = await forwarded('/html', headers);
      expect(answer.status, name).toBe(403);
      expect(errorOf(answer), name).toMatch(message);
      expectSafe(answer);
    }
  });

  test('a server that does not answer in time is a 504; a stalled JSON body is cut', async () => {
    const started = Date.now();
    const silent = await forwarded('/stall');
    expect(silent.status).toBe(504);
    expect(errorOf(silent)).toBe(`${hostileUrl}/stall did not answer within ${TIMEOUT_MS} ms`);
    const stalled = await forwarded('/stall-body');
    expect(stalled.status).toBe(502);
    expect(errorOf(stalled)).toBe(
      `the server did not send its whole answer within ${TIMEOUT_MS} ms`,
    );
    expect(Date.now() - started).toBeLessThan(10 * TIMEOUT_MS);
  });

  test('a JSON answer over 16 MiB is cut with a 502 that says so', async () => {
    const answer = await forwarded('/huge');
    expect(answer.status).toBe(502);
    expect(errorOf(answer)).toBe(`the server's answer is larger than ${16 * MIB} bytes`);
  });

  test('after all that, the playground is still up and serving', async () => {
    expect(child.exitCode).toBeNull();
    expect((await fetch(playgroundUrl)).status).toBe(200);
    expect((await forwarded('/json')).status).toBe(200);
  });
});
