import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, type ClientMode } from '@parley/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { apps, nodeArgs, repoRoot } from '../../../scripts/apps.mjs';
import { formatCommand, parseCommand } from '../src/commandLine.ts';
import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from '../src/forwarderHeader.ts';
import { createPlayground } from '../src/server.ts';
import { STDIO_TOKEN_HEADER } from '../src/stdioAccess.ts';

/**
 * The stdio bridge over real sockets on 127.0.0.1 with real child processes: the booking app
 * started with `--stdio` and driven by the real `@parley/client` in both eras, the refusals
 * (another origin, a missing header or token, a rebound host name) that start nothing, the
 * commands that cannot start or exit, and every way a child is stopped.
 */

const booking = apps.find((app) => app.name === 'booking')!;
const bookingCommand = formatCommand([process.execPath, ...nodeArgs(booking.entry), '--stdio']);
/** A child that says its pid on stderr and then waits. */
const waiter = formatCommand([
  process.execPath,
  '-e',
  'console.error("pid " + process.pid); setInterval(() => {}, 1000)',
]);

let server: Server;
let base = '';
let port = 0;
let token = '';
const scratch = mkdtempSync(join(tmpdir(), 'parley-stdio-'));

/** A playground on 127.0.0.1, and the token its page gets. */
async function startPlayground(idleTimeoutMs = 60_000) {
  const playground = await createPlayground({
    servers: [],
    stdio: { cwd: repoRoot, idleTimeoutMs },
  });
  await new Promise<void>((resolve) => playground.listen(0, '127.0.0.1', resolve));
  const { port } = playground.address() as { port: number };
  const html = await (await fetch(`http://127.0.0.1:${port}/`)).text();
  const token = /name="parley-stdio-token" content="([^"]+)"/.exec(html)![1]!;
  return { playground, port, token, base: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  ({ playground: server, port, token, base } = await startPlayground());
}, 60_000);

afterAll(async () => {
  server.close();
  server.closeAllConnections();
  rmSync(scratch, { recursive: true, force: true });
});

/** What the page's Client sends to a command's endpoint. */
const clientHeaders = () => ({
  [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE,
  [STDIO_TOKEN_HEADER]: token,
});
const pageHeaders = () => ({ ...clientHeaders(), 'content-type': 'application/json' });

async function start(command: string, headers: Record<string, string> = pageHeaders(), at = base) {
  const response = await fetch(`${at}/stdio/start`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ command }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

/** A raw request, whose Host header fetch would not let a test set. */
function raw(
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', headers },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The child's pid, read from the events stream (its stderr), and the stream's reader. */
async function pidOf(
  events: string,
  signal: AbortSignal,
  headers = pageHeaders(),
): Promise<number> {
  const response = await fetch(events, { headers, signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the events ended: ${seen}`);
    seen += value;
    const pid = /pid (\d+)/.exec(seen)?.[1];
    if (pid !== undefined) return Number(pid);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<void> {
  await expect.poll(() => alive(pid), { timeout: 8_000, interval: 50 }).toBe(false);
}

describe('command lines, split without a shell', () => {
  test('quotes and backslashes group words; shell operators and unclosed quotes are sentences', () => {
    expect(parseCommand(`node "my server.js" --name 'a b' c\\ d`)).toEqual({
      argv: ['node', 'my server.js', '--name', 'a b', 'c d'],
    });
    expect(parseCommand(`echo ''`)).toEqual({ argv: ['echo', ''] });
    expect(parseCommand(`node 'a|b'`)).toEqual({ argv: ['node', 'a|b'] });
    expect(parseCommand('node server.js | tee log')).toEqual({
      problem: expect.stringMatching(/without a shell, so "\|" means nothing here/),
    });
    expect(parseCommand('node $(whoami)')).toHaveProperty('problem');
    expect(parseCommand(`node 'open`)).toEqual({ problem: "The command has an unclosed ' quote." });
    expect(parseCommand('   ')).toHaveProperty('problem');
    const words = ['node', "it's", 'a "b"', '$HOME', ''];
    expect(parseCommand(formatCommand(words))).toEqual({ argv: words });
  });
});

describe('who may start a command', () => {
  test('the token is in the page only on the playground’s own host, and no other site frames it', async () => {
    expect(token).toMatch(/^[\w-]{40,}$/);
    const own = await fetch(`${base}/`);
    expect(own.headers.get('x-frame-options')).toBe('DENY');
    expect(own.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    const rebound = await raw('/', { host: `rebind.example:${port}` });
    expect(rebound.status).toBe(200);
    expect(rebound.body).toContain('name="parley-stdio-token" content=""');
    expect(rebound.body).not.toContain(token);
  });

  test('another origin, a cross-site fetch, a navigation, no header, no or a wrong token, a rebound host: 403, and nothing runs', async () => {
    const marker = join(scratch, 'started');
    const command = formatCommand([
      process.execPath,
      '-e',
      `require("fs").writeFileSync(${JSON.stringify(marker)}, "")`,
    ]);
    const { [STDIO_TOKEN_HEADER]: _token, ...noToken } = pageHeaders();
    const { [FORWARDER_HEADER]: _header, ...noHeader } = pageHeaders();
    const cases: [string, Record<string, string>, RegExp][] = [
      [
        'another origin',
        { ...pageHeaders(), origin: 'https://evil.example' },
        /not for https:\/\/evil\.example/,
      ],
      [
        'a cross-site fetch',
        { ...pageHeaders(), 'sec-fetch-site': 'cross-site' },
        /not for a cross-site request/,
      ],
      ['a same-site page', { ...pageHeaders(), 'sec-fetch-site': 'same-site' }, /same-site/],
      ['no forwarder header', noHeader, /x-parley-playground: 1/],
      ['no token', noToken, /has no x-parley-stdio-token/],
      [
        'a wrong token',
        { ...pageHeaders(), [STDIO_TOKEN_HEADER]: 'guessed' },
        /not this playground's/,
      ],
    ];
    for (const [name, headers, message] of cases) {
      const { status, body } = await start(command, headers);
      expect(status, name).toBe(403);
      expect(body.error, name).toMatch(message);
    }
    const body = JSON.stringify({ command });
    for (const host of [`rebind.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1']) {
      const rebound = await raw('/stdio/start', { ...pageHeaders(), host }, body);
      expect(rebound.status, host).toBe(403);
      expect(rebound.body, host).toMatch(/only for the playground's own page/);
    }
    // fetch sets its own Sec-Fetch-Mode: a navigation, as a browser sends it.
    const navigation = await raw(
      '/stdio/start',
      { ...pageHeaders(), host: `127.0.0.1:${port}`, 'sec-fetch-mode': 'navigate' },
      body,
    );
    expect(navigation.status).toBe(403);
    expect(navigation.body).toMatch(/not a page to open/);
    // Every refusal above came before the command: it never ran.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(existsSync(marker)).toBe(false);
    // The same command, asked for by the page itself, runs.
    expect((await start(command)).status).toBe(201);
    await expect.poll(() => existsSync(marker), { timeout: 8_000 }).toBe(true);
  });
});

describe('commands that cannot start or that exit', () => {
  test('a command with no program, or that a shell would need, is a 400 sentence', async () => {
    const missing = await start('no-such-program-parley --stdio');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe(
      'Could not start `no-such-program-parley --stdio`: there is no program "no-such-program-parley" (not found on PATH, or no such file).',
    );
    const piped = await start('node server.js > log');
    expect(piped.status).toBe(400);
    expect(piped.body.error).toMatch(/runs without a shell/);
  });

  test('a child that exits answers the page with its exit code and its last stderr line', async () => {
    const exits = formatCommand([
      process.execPath,
      '-e',
      'console.error("cannot open the database"); process.exit(3)',
    ]);
    const { status, body } = await start(exits);
    expect(status).toBe(201);
    const client = new Client(`${base}${body.mcp}`, {
      headers: clientHeaders(),
      mode: 'handshake',
    });
    const failure = await client.connect().then(
      () => 'connected',
      (error: unknown) => String(error),
    );
    expect(failure).toMatch(
      /exited with code 3; its last words on stderr: cannot open the database/,
    );
    const events = await (await fetch(`${base}${body.events}`, { headers: pageHeaders() })).text();
    expect(events).toContain('event: stderr\ndata: {"line":"cannot open the database"}');
    expect(events).toMatch(/event: exit\ndata: .*exited with code 3/);
  });
});

describe('the booking app over stdio, through the bridge', () => {
  for (const mode of ['handshake', 'modern', 'auto'] as ClientMode[]) {
    test(`${mode}: the real client connects, book_flight asks three rounds, and the booking is made`, async () => {
      const { status, body } = await start(bookingCommand);
      expect(status).toBe(201);
      const asked: string[] = [];
      const client = new Client(`${base}${body.mcp}`, {
        mode,
        headers: clientHeaders(),
        elicitationHandler: (message, responseType) => {
          asked.push(message);
          if (message.startsWith('Where')) return responseType({ destination: 'Lisbon' });
          if (message.startsWith('When')) return responseType({ date: '2026-09-01' });
          return responseType({ passenger: 'Ada Lovelace', confirm: true });
        },
      });
      await client.connect();
      expect(client.era).toBe(mode === 'handshake' ? 'handshake' : 'modern');
      const result = await client.callTool('book_flight', {});
      const text = result.content.map((block) => (block.type === 'text' ? block.text : ''));
      expect(text.join('')).toMatch(/^Booked \S+: Ada Lovelace to Lisbon on 2026-09-01$/);
      expect(asked).toHaveLength(3);
      await client.close();
    }, 60_000);
  }
});

describe('when a child is stopped', () => {
  test('when the page’s event stream closes (the page went away)', async () => {
    const { body } = await start(waiter);
    const abort = new AbortController();
    const pid = await pidOf(`${base}${body.events}`, abort.signal);
    expect(alive(pid)).toBe(true);
    abort.abort();
    await gone(pid);
  });

  test('with what it started: a grandchild (as `npx` starts the server) is stopped too', async () => {
    const parent = formatCommand([
      process.execPath,
      '-e',
      `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(
        'console.error("pid " + process.pid); setInterval(() => {}, 1000)',
      )}], { stdio: 'inherit' }); setInterval(() => {}, 1000)`,
    ]);
    const { body } = await start(parent);
    const abort = new AbortController();
    const grandchild = await pidOf(`${base}${body.events}`, abort.signal);
    expect(alive(grandchild)).toBe(true);
    abort.abort();
    await gone(grandchild);
  });

  test('on the session’s DELETE, after which its endpoint says it is gone', async () => {
    const { body } = await start(waiter);
    const abort = new AbortController();
    const pid = await pidOf(`${base}${body.events}`, abort.signal);
    const deleted = await fetch(`${base}${body.mcp}`, { method: 'DELETE', headers: pageHeaders() });
    expect(deleted.status).toBe(200);
    await gone(pid);
    const after = await fetch(`${base}${body.mcp}`, {
      method: 'POST',
      headers: pageHeaders(),
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(after.status).toBe(502);
    expect(((await after.json()) as { error: string }).error).toMatch(
      /The playground stopped `.*`: the page ended the session\./,
    );
    abort.abort();
  });

  test('after the idle timeout', async () => {
    const idle = await startPlayground(1_500);
    const headers = { ...pageHeaders(), [STDIO_TOKEN_HEADER]: idle.token };
    expect(idle.token).not.toBe(token);
    const { body } = await start(waiter, headers, idle.base);
    const abort = new AbortController();
    const pid = await pidOf(`${idle.base}${body.events}`, abort.signal, headers);
    await gone(pid);
    const events = await fetch(`${idle.base}${body.events}`, { headers });
    expect(await events.text()).toMatch(/it was idle for 2 s/);
    abort.abort();
    idle.playground.close();
    idle.playground.closeAllConnections();
  });

  test('when the playground stops', async () => {
    const other = await startPlayground();
    const headers = { ...pageHeaders(), [STDIO_TOKEN_HEADER]: other.token };
    const { body } = await start(waiter, headers, other.base);
    const abort = new AbortController();
    const pid = await pidOf(`${other.base}${body.events}`, abort.signal, headers);
    // Closing the server stops its children, while their streams are still open.
    other.playground.close();
    await gone(pid);
    abort.abort();
    other.playground.closeAllConnections();
  });
});
