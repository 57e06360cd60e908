import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { createSeedServer } from '../fixtures/seedServer.ts';
import { rawHttp, rawRequest, type RawAnswer } from '../helpers/rawHttp.ts';

/**
 * Never down from bad input. A real server process on 127.0.0.1 (the seed server: both eras,
 * tools that ask, a prompt, resources) gets malformed input at every layer: the request line,
 * the headers, the body's framing and encoding, the JSON, the JSON-RPC envelope of each era,
 * the modern `_meta` envelope and its headers, a handshake session's messages, and the
 * parameters of calls. Every case must get an answer that is not a `5xx` (a `4xx` carries a
 * JSON-RPC error that names the problem, never "Internal error"), the process must not report
 * a failure of its own, and after every case the server must still serve.
 */

const fixture = fileURLToPath(new URL('../fixtures/seedHttpMain.ts', import.meta.url));
let child: ChildProcess;
let port: number;
let host: string;
const reports: string[] = [];
let session: string;

beforeAll(async () => {
  child = spawn(process.execPath, ['--conditions=@parley/source', '--import', 'tsx', fixture], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
    if (line.startsWith('[report]')) reports.push(line);
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
  });
  port = Number(new URL(url).port);
  host = `127.0.0.1:${port}`;
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'fuzz', version: '1' },
      },
    }),
  });
  session = init.headers.get('mcp-session-id') as string;
  await init.text();
}, 60_000);

afterAll(() => {
  child?.kill('SIGKILL');
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
};

type Headers = [string, string][];

const base = (): Headers => [
  ['Host', host],
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json, text/event-stream'],
];
const modern = (method = 'tools/call', name?: string): Headers => [
  ...base(),
  ['MCP-Protocol-Version', '2026-07-28'],
  ['Mcp-Method', method],
  ...(name !== undefined ? ([['Mcp-Name', name]] as Headers) : []),
];
const inSession = (): Headers => [
  ...base(),
  ['Mcp-Session-Id', session],
  ['MCP-Protocol-Version', '2025-11-25'],
];

function post(headers: Headers, body: string | Buffer, line = 'POST /mcp HTTP/1.1'): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return rawRequest(line, [...headers, ['Content-Length', String(bytes.length)]], bytes);
}

function call(params: Record<string, unknown>, name = 'book_flight'): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name, arguments: {}, _meta: META, ...params },
  });
}

interface Case {
  layer: string;
  name: string;
  bytes: Buffer | (string | Buffer)[];
  pauseMs?: number;
  timeoutMs?: number;
}

const discover = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: { _meta: META },
});

/** Every case, built once the server (its port, a session) is up. */
function buildCases(): Case[] {
  const cases: Case[] = [];
  const add = (layer: string, name: string, bytes: Case['bytes'], extra: Partial<Case> = {}) =>
    cases.push({ layer, name, bytes, ...extra });

  // ---- the request line -------------------------------------------------------------------------
  for (const line of [
    'POST http://[::1/mcp HTTP/1.1',
    'POST http://[::1]/mcp HTTP/1.1',
    'POST http://a b/mcp HTTP/1.1',
    'POST //evil.example/mcp HTTP/1.1',
    'POST /mcp?x=%zz HTTP/1.1',
    'POST /mcp#frag HTTP/1.1',
    'POST /%2e%2e/mcp HTTP/1.1',
    'POST /mcp/../mcp HTTP/1.1',
    'POST * HTTP/1.1',
    'POST mcp HTTP/1.1',
    'POST https://127.0.0.1/mcp HTTP/1.1',
    'POST /mcp HTTP/1.0',
    'POST /mcp HTTP/2.0',
    'POST /mcp HTTP/9.9',
    'POST /mcp',
    'POST  /mcp  HTTP/1.1',
    'POST /mcp HTTP/1.1 extra',
    'post /mcp HTTP/1.1',
    'P0ST /mcp HTTP/1.1',
    'BREW /mcp HTTP/1.1',
    'CONNECT 127.0.0.1:1 HTTP/1.1',
    'TRACE /mcp HTTP/1.1',
    'PUT /mcp HTTP/1.1',
    'PATCH /mcp HTTP/1.1',
    'OPTIONS /mcp HTTP/1.1',
    'OPTIONS * HTTP/1.1',
    'GET /mcp HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13',
    'HEAD /mcp HTTP/1.1',
    `POST /${'a'.repeat(20_000)} HTTP/1.1`,
    'POST /mcp\u0000 HTTP/1.1',
    'POST /m\tcp HTTP/1.1',
    '\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003',
    'GET / HTTP/1.1',
    'GET /ready HTTP/1.1',
    'GET /mcp HTTP/1.1',
    'DELETE /mcp HTTP/1.1',
  ]) {
    add(
      'request line',
      line.slice(0, 60),
      post(
        modern('server/discover'),
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'server/discover',
          params: { _meta: META },
        }),
        line,
      ),
    );
  }
  add('request line', 'not HTTP at all', ['hello\r\n\r\n']);
  add('request line', 'an empty line, then nothing', ['\r\n\r\n']);
  add('request line', 'bytes above 0x7f', [Buffer.from([0xff, 0xfe, 0x0d, 0x0a, 0x0d, 0x0a])]);

  // ---- headers ------------------------------------------------------------------------------------
  const withHeaders = (headers: Headers) =>
    post(
      [...headers, ['MCP-Protocol-Version', '2026-07-28'], ['Mcp-Method', 'server/discover']],
      discover,
    );
  for (const hostValue of [
    'a b',
    '',
    '[::1',
    'evil.example',
    '127.0.0.1:99999',
    'ünïcödé',
    '..',
    'localhost:abc',
    '@',
    'a/b',
  ]) {
    add(
      'headers',
      `Host: ${hostValue}`,
      withHeaders([
        ['Host', hostValue],
        ['Content-Type', 'application/json'],
      ]),
    );
  }
  add('headers', 'no Host', withHeaders([['Content-Type', 'application/json']]));
  add(
    'headers',
    'two Hosts',
    withHeaders([
      ['Host', host],
      ['Host', 'evil.example'],
      ['Content-Type', 'application/json'],
    ]),
  );
  add('headers', 'a header without a colon', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nbroken header\r\n\r\n`,
  ]);
  add('headers', 'obs-fold', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nX-A: a\r\n b\r\nContent-Length: 0\r\n\r\n`,
  ]);
  add('headers', 'a NUL in a value', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nX-A: a\u0000b\r\nContent-Length: 0\r\n\r\n`,
  ]);
  add('headers', 'a space before the colon', [
    `POST /mcp HTTP/1.1\r\nHost : ${host}\r\nContent-Length: 0\r\n\r\n`,
  ]);
  add('headers', 'a 64 KiB header', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${'a'.repeat(65_536)}\r\n\r\n`,
  ]);
  add('headers', '3000 headers', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n${Array.from({ length: 3000 }, (_, i) => `X-${i}: v\r\n`).join('')}\r\n`,
  ]);
  for (const type of [
    'text/plain',
    'application/json-seq',
    'application/jsonx',
    '',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
  ]) {
    add(
      'headers',
      `Content-Type: ${type}`,
      post(
        [
          ['Host', host],
          ['Content-Type', type],
          ['MCP-Protocol-Version', '2026-07-28'],
          ['Mcp-Method', 'server/discover'],
        ],
        discover,
      ),
    );
  }
  add(
    'headers',
    'no Content-Type',
    post(
      [
        ['Host', host],
        ['MCP-Protocol-Version', '2026-07-28'],
      ],
      discover,
    ),
  );
  for (const length of ['-1', 'abc', '1e3', '0x10', '99999999999999999999', '5, 6']) {
    add('headers', `Content-Length: ${length}`, [
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n{}`,
    ]);
  }
  add('headers', 'two different Content-Lengths', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{} `,
  ]);
  add('headers', 'Content-Length and chunked', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  ]);
  add('headers', 'Transfer-Encoding: gzip, chunked', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  ]);
  add('headers', 'Transfer-Encoding: nonsense', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: nonsense\r\n\r\n{}`,
  ]);
  add('headers', 'a Content-Length shorter than the body', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nMCP-Protocol-Version: 2026-07-28\r\n\r\n${discover}`,
  ]);
  add(
    'headers',
    'a Content-Length longer than the body (the request times out)',
    [
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{}`,
    ],
    { timeoutMs: 5_000 },
  );
  add(
    'headers',
    'headers that never end (the request times out)',
    [`POST /mcp HTTP/1.1\r\nHost: ${host}\r\n`],
    { timeoutMs: 5_000 },
  );
  add(
    'headers',
    'Expect: 100-continue over the limit',
    [
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 10000000\r\n\r\n`,
    ],
    { timeoutMs: 5_000 },
  );
  for (const [name, value] of [
    ['MCP-Protocol-Version', 'garbage'],
    ['MCP-Protocol-Version', '2025-11-25'],
    ['MCP-Protocol-Version', '2099-01-01'],
    ['Mcp-Method', 'tools/list'],
    ['Mcp-Method', ''],
    ['Mcp-Name', '=?base64?!!!?='],
    ['Mcp-Name', '=?base64?Ym9vaw==?='],
    ['Mcp-Name', 'other_tool'],
    ['Mcp-Session-Id', 'not-a-session'],
    ['Mcp-Session-Id', ''],
    ['Authorization', 'Bearer x'],
    ['Accept', 'text/html'],
    ['Origin', 'https://evil.example'],
    ['Origin', 'null'],
    ['Origin', '::::'],
  ] as const) {
    add(
      'headers',
      `${name}: ${value}`,
      post(
        [
          ...base().filter(([n]) => n !== name),
          ['MCP-Protocol-Version', '2026-07-28'],
          ['Mcp-Method', 'tools/call'],
          ['Mcp-Name', 'book_flight'],
          [name, value],
        ],
        call({}),
      ),
    );
  }

  // ---- the body: framing, size, encoding -------------------------------------------------------------
  const big = Buffer.alloc(10 * 1024 * 1024, 'a');
  add(
    'body',
    'a 10 MB chunked upload (413)',
    [
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ...Array.from({ length: 40 }, (_, i) =>
        Buffer.concat([
          Buffer.from(`40000\r\n`),
          big.subarray(i * 0x40000, (i + 1) * 0x40000),
          Buffer.from('\r\n'),
        ]),
      ),
      '0\r\n\r\n',
    ],
    { timeoutMs: 10_000 },
  );
  add('body', 'a 10 MB body with its length (413)', post(modern(), big), { timeoutMs: 10_000 });
  add('body', 'a body just over the limit', post(modern(), Buffer.alloc(64 * 1024 + 1, ' ')));
  add('body', 'a chunked body with a bad chunk size', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
  ]);
  add('body', 'a chunk longer than it says', [
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n`,
  ]);
  add(
    'body',
    'chunks in pieces, slowly',
    [
      `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nTransfer-Encoding: chunked\r\n\r\n`,
      `${discover.length.toString(16)}\r\n`,
      discover.slice(0, 10),
      discover.slice(10),
      '\r\n0\r\n\r\n',
    ],
    { pauseMs: 30 },
  );
  for (const encoding of ['gzip', 'br', 'deflate', 'identity, gzip', 'x-garbage']) {
    add(
      'body',
      `Content-Encoding: ${encoding}`,
      post([...modern('server/discover'), ['Content-Encoding', encoding]], discover),
    );
  }
  add('body', 'invalid UTF-8', post(modern(), Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])));
  add(
    'body',
    'a lone surrogate, escaped',
    post(modern(), call({ arguments: { a: '\\ud800' } }).replace('"\\\\ud800"', '"\\ud800"')),
  );
  add(
    'body',
    'a UTF-8 BOM',
    post(
      modern('server/discover'),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(discover)]),
    ),
  );
  add('body', 'UTF-16', post(modern('server/discover'), Buffer.from(discover, 'utf16le')));
  add('body', 'empty', post(modern(), ''));
  add('body', 'whitespace', post(modern(), '   \n\t '));
  add('body', 'NUL bytes', post(modern(), Buffer.alloc(32)));
  for (const text of [
    '{',
    '}',
    '{"jsonrpc":',
    'nul',
    'true',
    'null',
    '"string"',
    '12',
    '1e400',
    '[]',
    '[1]',
    '[[]]',
    '{}{}',
    'NaN',
    '{"a":1,}',
    "{'a':1}",
    `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
    `{"a":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_001)}`,
  ]) {
    add('json', `body ${JSON.stringify(text.slice(0, 30))}`, post(modern(), text));
  }

  // ---- JSON-RPC, modern era -------------------------------------------------------------------------
  const rpc = (message: unknown, headers: Headers = modern()) =>
    post(headers, JSON.stringify(message));
  for (const message of [
    { jsonrpc: '1.0', id: 1, method: 'tools/call', params: { _meta: META } },
    { id: 1, method: 'tools/call', params: { _meta: META } },
    { jsonrpc: '2.0', id: { a: 1 }, method: 'tools/call', params: { _meta: META } },
    { jsonrpc: '2.0', id: true, method: 'tools/call', params: { _meta: META } },
    { jsonrpc: '2.0', id: null, method: 'tools/call', params: { _meta: META } },
    { jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: { name: 'book_flight', _meta: META } },
    { jsonrpc: '2.0', id: 1, method: 42, params: { _meta: META } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [META] },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: 'x' } },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 7 } },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': [] } },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        _meta: { ...META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: 1 } },
      },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { ...META, 'io.modelcontextprotocol/clientInfo': 'me' } },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { ...META, 'io.modelcontextprotocol/logLevel': 'loud' } },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { ...META, progressToken: {} } },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
    },
    { jsonrpc: '2.0', id: 1, method: 'no/such/method', params: { _meta: META } },
    { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: META } },
    { jsonrpc: '2.0', id: 1, result: {}, params: { _meta: META } },
    [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META } }],
    [],
    [1, 2, 3],
    { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { _meta: META, filter: 'x' } },
    { jsonrpc: '2.0', id: 1, method: 'completion/complete', params: { _meta: META, ref: 5 } },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META, cursor: 5 } },
    { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { _meta: META, uri: 5 } },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { _meta: META, uri: 'report://nope' },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'resources/read',
      params: { _meta: META, uri: '::not a uri::' },
    },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'prompts/get',
      params: { _meta: META, name: 'summarize', arguments: { a: 1 } },
    },
    { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { _meta: META, name: 'nope' } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META, name: 5 } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META, name: 'nope' } },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { _meta: META, name: 'book_flight', arguments: [] },
    },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META, name: '__proto__' } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META, name: 'constructor' } },
  ]) {
    add('JSON-RPC (modern)', JSON.stringify(message).slice(0, 70), rpc(message));
  }
  for (const params of [
    { inputResponses: 'x' },
    { inputResponses: [] },
    { inputResponses: { destination: 'x' } },
    { inputResponses: { destination: { action: 'maybe' } } },
    { inputResponses: { destination: { action: 'accept', content: 'x' } } },
    { inputResponses: { destination: { action: 'accept', content: { destination: 5 } } } },
    { inputResponses: { __proto__: { polluted: true } } },
    { requestState: 5 },
    { requestState: '' },
    { requestState: 'x'.repeat(60_000) },
    { requestState: 'v1.AAAA.BBBB' },
    { requestState: '\u0000' },
    {
      inputResponses: { destination: { action: 'accept', content: { destination: 'Rome' } } },
      requestState: 'garbage',
    },
  ]) {
    add(
      'parameters (modern)',
      JSON.stringify(params).slice(0, 70),
      post(modern('tools/call', 'book_flight'), call(params)),
    );
  }

  // ---- JSON-RPC, handshake era ------------------------------------------------------------------------
  const handshakeCases: [string, unknown, (() => Headers)?][] = [
    ['initialize without params', { jsonrpc: '2.0', id: 1, method: 'initialize' }, base],
    [
      'initialize with params: []',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: [] },
      base,
    ],
    [
      'initialize without clientInfo',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {} },
      },
      base,
    ],
    [
      'initialize with version 7',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: 7, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
      base,
    ],
    [
      'initialize as a notification',
      {
        jsonrpc: '2.0',
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      },
      base,
    ],
    [
      'initialize with an unknown version',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '1999-01-01',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      },
      base,
    ],
    [
      'a batch of two initializes',
      [1, 2].map((id) => ({
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      })),
      base,
    ],
    ['tools/list without a session', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, base],
    ['a response without a session', { jsonrpc: '2.0', id: 1, result: {} }, base],
    [
      'a notification without a session',
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      base,
    ],
    [
      'initialize again in the session',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      },
    ],
    ['a bad JSON-RPC version in the session', { jsonrpc: '1.0', id: 1, method: 'tools/list' }],
    [
      'a response to nothing',
      { jsonrpc: '2.0', id: 999_999, result: { action: 'accept', content: {} } },
    ],
    [
      'an error response to nothing',
      { jsonrpc: '2.0', id: 999_999, error: { code: 1, message: 'x' } },
    ],
    [
      'a response with both result and error',
      { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } },
    ],
    [
      'tools/call with arguments: 5',
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'book_flight', arguments: 5 },
      },
    ],
    [
      'tools/call of a missing tool',
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } },
    ],
    ['tools/call without a name', { jsonrpc: '2.0', id: 3, method: 'tools/call', params: {} }],
    [
      'prompts/get with a number argument',
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'prompts/get',
        params: { name: 'summarize', arguments: { q: 1 } },
      },
    ],
    [
      'resources/read of nothing',
      { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 'nope://x' } },
    ],
    [
      'logging/setLevel to nonsense',
      { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'loud' } },
    ],
    [
      'resources/subscribe without a uri',
      { jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: {} },
    ],
    [
      'completion/complete with a bad ref',
      { jsonrpc: '2.0', id: 3, method: 'completion/complete', params: { ref: 1, argument: 2 } },
    ],
    ['an unknown method', { jsonrpc: '2.0', id: 3, method: 'nope/nope' }],
    [
      'notifications/cancelled of nothing',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } },
    ],
    [
      'a modern envelope inside a batch',
      [{ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: META } }],
    ],
    ['an empty batch in the session', []],
    ['a batch of garbage in the session', [1, 'a', null]],
  ];
  for (const [name, message, headers] of handshakeCases) {
    add('JSON-RPC (handshake)', name, post((headers ?? inSession)(), JSON.stringify(message)));
  }
  for (const [name, line, headers] of [
    [
      'GET without a session',
      'GET /mcp HTTP/1.1',
      (): Headers => [
        ['Host', host],
        ['Accept', 'text/event-stream'],
      ],
    ],
    [
      'GET with a foreign session',
      'GET /mcp HTTP/1.1',
      (): Headers => [
        ['Host', host],
        ['Accept', 'text/event-stream'],
        ['Mcp-Session-Id', 'nope'],
      ],
    ],
    [
      'GET with a garbage Last-Event-ID',
      'GET /mcp HTTP/1.1',
      (): Headers => [
        ['Host', host],
        ['Accept', 'text/event-stream'],
        ['Mcp-Session-Id', session],
        ['MCP-Protocol-Version', '2025-11-25'],
        ['Last-Event-ID', 'garbage'],
      ],
    ],
    [
      'GET with an empty Last-Event-ID',
      'GET /mcp HTTP/1.1',
      (): Headers => [
        ['Host', host],
        ['Accept', 'text/event-stream'],
        ['Mcp-Session-Id', session],
        ['MCP-Protocol-Version', '2025-11-25'],
        ['Last-Event-ID', ''],
      ],
    ],
    [
      'GET without Accept',
      'GET /mcp HTTP/1.1',
      (): Headers => [
        ['Host', host],
        ['Mcp-Session-Id', session],
        ['MCP-Protocol-Version', '2025-11-25'],
      ],
    ],
    [
      'DELETE of a foreign session',
      'DELETE /mcp HTTP/1.1',
      (): Headers => [
        ['Host', host],
        ['Mcp-Session-Id', 'nope'],
      ],
    ],
    ['DELETE without a session', 'DELETE /mcp HTTP/1.1', (): Headers => [['Host', host]]],
    [
      'a session call with a bad protocol version header',
      'POST /mcp HTTP/1.1',
      (): Headers => [...base(), ['Mcp-Session-Id', session], ['MCP-Protocol-Version', 'garbage']],
    ],
  ] as const) {
    add('JSON-RPC (handshake)', name, rawRequest(line, [...headers(), ['Content-Length', '0']]));
  }

  // ---- generated: random JSON, bytes, header values and request targets (fixed seed) ----------------
  const seed = 20_260_728;
  const json = fc.sample(fc.jsonValue({ maxDepth: 4 }), { seed, numRuns: 40 });
  json.forEach((value, i) =>
    add('generated: whole body', `JSON value ${i}`, post(modern(), JSON.stringify(value))),
  );
  const fields = fc.sample(
    fc.record({
      field: fc.constantFrom(
        'arguments',
        'inputResponses',
        'requestState',
        'name',
        '_meta',
        'cursor',
        'uri',
      ),
      value: fc.jsonValue({ maxDepth: 3 }),
    }),
    { seed, numRuns: 40 },
  );
  fields.forEach(({ field, value }, i) =>
    add(
      'generated: params',
      `${field} ${i}`,
      post(modern('tools/call', 'book_flight'), call({ [field]: value })),
    ),
  );
  const bytes = fc.sample(fc.uint8Array({ minLength: 1, maxLength: 300 }), { seed, numRuns: 20 });
  bytes.forEach((value, i) =>
    add('generated: body bytes', `bytes ${i}`, post(modern(), Buffer.from(value))),
  );
  const headerValues = fc.sample(
    fc.record({
      name: fc.constantFrom(
        'MCP-Protocol-Version',
        'Mcp-Method',
        'Mcp-Name',
        'Mcp-Session-Id',
        'Content-Type',
        'Accept',
        'Origin',
      ),
      value: fc
        .string({ unit: 'binary-ascii', maxLength: 40 })
        .map((text) => text.replace(/[\r\n]/g, '')),
    }),
    { seed, numRuns: 25 },
  );
  headerValues.forEach(({ name, value }, i) =>
    add(
      'generated: header values',
      `${name} ${i}`,
      post(
        [...modern('tools/call', 'book_flight').filter(([n]) => n !== name), [name, value]],
        call({}),
      ),
    ),
  );
  const targets = fc.sample(
    fc.string({ unit: 'binary-ascii', maxLength: 30 }).map((text) => text.replace(/[\s]/g, '')),
    { seed, numRuns: 20 },
  );
  targets.forEach((target, i) =>
    add(
      'generated: request targets',
      `target ${i}`,
      post(modern('server/discover'), discover, `POST ${target || '/'} HTTP/1.1`),
    ),
  );
  const handshakeJson = fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: seed + 1, numRuns: 20 });
  handshakeJson.forEach((value, i) =>
    add(
      'generated: handshake session body',
      `JSON value ${i}`,
      post(inSession(), JSON.stringify(value)),
    ),
  );
  return cases;
}

/** The JSON-RPC errors an answer carries (a JSON body, or the data of SSE events). */
function errorsOf(answer: RawAnswer): { code: unknown; message: unknown }[] {
  const texts = answer.headers['content-type']?.startsWith('text/event-stream')
    ? answer.body
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
    : [answer.body];
  const errors = [];
  for (const text of texts) {
    if (text.trim() === '') continue;
    const parsed = JSON.parse(text) as { error?: { code: unknown; message: unknown } };
    if (parsed.error !== undefined) errors.push(parsed.error);
  }
  return errors;
}

async function stillServes(): Promise<number> {
  const answer = await rawHttp(port, post(modern('server/discover'), discover), {
    timeoutMs: 5_000,
  });
  return answer.status ?? 0;
}

describe('bad input never takes the server down', () => {
  let cases: Case[];
  beforeAll(() => {
    cases = buildCases();
  });

  test('the suite is large and covers both eras and every layer', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map((c) => c.layer)).size).toBeGreaterThanOrEqual(10);
  });

  test('every case gets a 4xx (or a 2xx) with a JSON-RPC error that names the problem, and the server still serves after each', async () => {
    const tally = { cases: 0, fourxx: 0, twoxx: 0, fivexx: 0, noAnswer: 0 };
    const problems: string[] = [];
    for (const fuzzCase of cases) {
      const answer = await rawHttp(port, fuzzCase.bytes, {
        timeoutMs: fuzzCase.timeoutMs ?? 3_000,
        ...(fuzzCase.pauseMs !== undefined ? { pauseMs: fuzzCase.pauseMs } : {}),
      });
      tally.cases++;
      const label = `${fuzzCase.layer}: ${fuzzCase.name}`;
      if (answer.status === undefined) {
        tally.noAnswer++;
        problems.push(`${label}: no answer (${answer.ended})`);
      } else if (answer.status >= 500) {
        tally.fivexx++;
        problems.push(`${label}: ${answer.status} ${answer.body.slice(0, 200)}`);
      } else {
        if (answer.status >= 400) tally.fourxx++;
        else tally.twoxx++;
        let errors: { code: unknown; message: unknown }[] = [];
        try {
          errors = errorsOf(answer);
        } catch {
          problems.push(
            `${label}: ${answer.status} with a body that is not JSON: ${answer.body.slice(0, 120)}`,
          );
        }
        // A HEAD answer has no body, by definition.
        const head = fuzzCase.name.startsWith('HEAD ');
        if (answer.status >= 400 && errors.length === 0 && !head) {
          problems.push(
            `${label}: ${answer.status} without a JSON-RPC error: ${answer.body.slice(0, 120)}`,
          );
        }
        for (const error of errors) {
          if (
            typeof error.code !== 'number' ||
            typeof error.message !== 'string' ||
            /^Internal error$/i.test(error.message)
          ) {
            problems.push(`${label}: ${answer.status} ${JSON.stringify(error).slice(0, 200)}`);
          }
        }
      }
      const serving = await stillServes();
      if (serving !== 200) problems.push(`${label}: the server stopped serving (${serving})`);
      expect(child.exitCode).toBeNull();
    }
    console.log(`[fuzz] ${JSON.stringify(tally)}; server reports: ${reports.length}`);
    for (const report of reports.slice(0, 10)) console.log(report);
    expect(problems).toEqual([]);
    expect(reports).toEqual([]);
    expect(tally.fivexx).toBe(0);
  }, 300_000);
});

/** A raw request as a web `Request`, when the fetch API can express it at all. */
function webRequestOf(bytes: Case['bytes']): Request | undefined {
  const whole = Buffer.concat((Array.isArray(bytes) ? bytes : [bytes]).map((b) => Buffer.from(b)));
  const end = whole.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [line = '', ...headerLines] = whole.subarray(0, end).toString('latin1').split('\r\n');
  const [method, target] = line.split(' ');
  if (method === undefined || target === undefined || !target.startsWith('/')) return undefined;
  try {
    const headers = new Headers();
    for (const header of headerLines) {
      const colon = header.indexOf(':');
      if (colon <= 0) return undefined;
      const name = header.slice(0, colon).trim().toLowerCase();
      if (name === 'content-length' || name === 'transfer-encoding' || name === 'host') continue;
      headers.append(name, header.slice(colon + 1).trim());
    }
    const body = whole.subarray(end + 4);
    return new Request(`http://parley.test${target}`, {
      method,
      headers,
      ...(method !== 'GET' && method !== 'HEAD' && body.length > 0 ? { body } : {}),
    });
  } catch {
    return undefined;
  }
}

describe('the same cases through mcp.fetch (web-standard hosts)', () => {
  test('no case gets a 5xx, and every 4xx carries a JSON-RPC error', async () => {
    const mcp = createSeedServer({ http: { maxBodyBytes: 64 * 1024 }, onWarning: () => {} });
    const cases = buildCases();
    let tried = 0;
    const problems: string[] = [];
    for (const fuzzCase of cases) {
      const request = webRequestOf(fuzzCase.bytes);
      if (request === undefined) continue;
      tried++;
      const response = await mcp.fetch(request);
      const text = response.headers.get('content-type')?.startsWith('text/event-stream')
        ? ''
        : await response.text();
      await response.body?.cancel().catch(() => {});
      const label = `${fuzzCase.layer}: ${fuzzCase.name}`;
      if (response.status >= 500)
        problems.push(`${label}: ${response.status} ${text.slice(0, 120)}`);
      if (response.status >= 400 && request.method !== 'HEAD') {
        const error = (
          JSON.parse(text || '{}') as { error?: { code?: unknown; message?: unknown } }
        ).error;
        if (typeof error?.code !== 'number' || typeof error.message !== 'string') {
          problems.push(
            `${label}: ${response.status} without a JSON-RPC error: ${text.slice(0, 120)}`,
          );
        }
      }
    }
    console.log(`[fuzz fetch] ${tried} of ${cases.length} cases could be expressed as a Request`);
    expect(tried).toBeGreaterThan(200);
    expect(problems).toEqual([]);
  }, 120_000);
});
