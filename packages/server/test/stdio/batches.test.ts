import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, test } from 'vitest';

/**
 * JSON-RPC batches over stdio, against the seed server as a real child process. Protocol
 * revision 2025-03-26 requires servers to accept batches: on such a session each batch is served
 * and its responses come back as one JSON array on one line (none for a batch without
 * requests). 2025-06-18 removed batching, and the modern era never had it: there, and before
 * `initialize`, a batch is refused with one -32600 that says why.
 */

const main = fileURLToPath(new URL('../fixtures/seedServerMain.ts', import.meta.url));

type Line = Record<string, unknown> | Record<string, unknown>[];

/** A stdio server process and the lines it writes. */
class StdioPeer {
  readonly #child: ChildProcess;
  readonly #lines: Line[] = [];
  #wake: (() => void) | undefined;

  constructor() {
    this.#child = spawn(
      process.execPath,
      ['--conditions=@parley/source', '--import', 'tsx', main],
      {
        stdio: ['pipe', 'pipe', 'ignore'],
      },
    );
    createInterface({ input: this.#child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      this.#lines.push(JSON.parse(line) as Line);
      this.#wake?.();
    });
  }

  write(message: unknown): void {
    this.#child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  /** The next line the server writes. */
  async next(timeoutMs = 20_000): Promise<Line> {
    const deadline = Date.now() + timeoutMs;
    while (this.#lines.length === 0) {
      if (Date.now() > deadline) throw new Error('the server wrote nothing');
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    return this.#lines.shift() as Line;
  }

  async initialize(protocolVersion: string, capabilities: object = {}): Promise<void> {
    this.write({
      jsonrpc: '2.0',
      id: 'init',
      method: 'initialize',
      params: { protocolVersion, capabilities, clientInfo: { name: 'batcher', version: '1' } },
    });
    const answer = (await this.next()) as { result: { protocolVersion: string } };
    expect(answer.result.protocolVersion).toBe(protocolVersion);
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  kill(): void {
    this.#child.kill();
  }
}

const peers: StdioPeer[] = [];
afterEach(() => {
  for (const peer of peers.splice(0)) peer.kill();
});

function peer(): StdioPeer {
  const created = new StdioPeer();
  peers.push(created);
  return created;
}

const ping = (id: string | number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const byId = (line: Line) =>
  [...(line as Record<string, unknown>[])].sort((a, b) => String(a.id).localeCompare(String(b.id)));

describe('a 2025-03-26 session over stdio', () => {
  test('serves a batch: one array of responses; a batch without requests gets none', async () => {
    const server = peer();
    await server.initialize('2025-03-26');
    server.write([
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      ping('b'),
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
    ]);
    const answers = byId(await server.next());
    expect(answers.map((answer) => answer.id)).toEqual(['a', 'b']);
    expect((answers[0]?.result as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
    expect(answers[1]).toEqual({ jsonrpc: '2.0', id: 'b', result: {} });

    // Notifications only: nothing comes back, so the next line is the ping's.
    server.write([{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }]);
    server.write(ping('after'));
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
  }, 60_000);

  test('a broken message in a batch gets its error in the array; the rest is served', async () => {
    const server = peer();
    await server.initialize('2025-03-26');
    server.write([ping('c'), { jsonrpc: '1.0', id: 'd', method: 'ping' }, 7]);
    const answers = await server.next();
    expect(Array.isArray(answers)).toBe(true);
    expect(byId(answers)).toEqual([
      { jsonrpc: '2.0', id: 'c', result: {} },
      {
        jsonrpc: '2.0',
        id: 'd',
        error: { code: -32600, message: 'Invalid Request: the message lacks "jsonrpc": "2.0"' },
      },
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: 'Invalid Request: a line must be a JSON-RPC 2.0 message (an object)',
        },
      },
    ]);
  }, 60_000);

  test('a batched call that asks: the question comes alone, the answers together', async () => {
    const server = peer();
    await server.initialize('2025-03-26', { elicitation: {} });
    server.write([
      { jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'get_user_name' } },
      ping('p'),
    ]);
    const asked = (await server.next()) as { id: number; method: string };
    expect(asked.method).toBe('elicitation/create');
    server.write({
      jsonrpc: '2.0',
      id: asked.id,
      result: { action: 'accept', content: { value: 'Ada' } },
    });
    const answers = byId(await server.next());
    expect(answers.map((answer) => answer.id)).toEqual(['call', 'p']);
    expect(JSON.stringify(answers[0]?.result)).toContain('Ada');
  }, 60_000);

  test('a cancelled request of a batch is not waited for', async () => {
    const server = peer();
    await server.initialize('2025-03-26', { elicitation: {} });
    server.write([
      { jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'get_user_name' } },
      ping('p'),
    ]);
    expect(((await server.next()) as { method: string }).method).toBe('elicitation/create');
    server.write({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'slow', reason: 'the user left' },
    });
    expect(await server.next()).toEqual([{ jsonrpc: '2.0', id: 'p', result: {} }]);
  }, 60_000);

  test('refuses what no revision batches: initialize, modern requests, an empty batch', async () => {
    const server = peer();
    await server.initialize('2025-03-26');
    const refusals: [unknown[], RegExp][] = [
      [[], /the batch is empty/],
      [
        [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }],
        /initialize must be sent alone/,
      ],
      [
        [
          {
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/list',
            params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
          },
        ],
        /may not contain requests for protocol revision 2026-07-28/,
      ],
    ];
    for (const [batch, why] of refusals) {
      server.write(batch);
      const answer = (await server.next()) as {
        id: unknown;
        error: { code: number; message: string };
      };
      expect(answer.id).toBeNull();
      expect(answer.error.code).toBe(-32600);
      expect(answer.error.message).toMatch(why);
    }
  }, 60_000);
});

describe.each(['2025-06-18', '2025-11-25'])('a %s session over stdio', (revision) => {
  test('refuses a batch with one -32600 naming the revision, and serves on', async () => {
    const server = peer();
    await server.initialize(revision);
    server.write([ping(1), ping(2)]);
    expect(await server.next()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: JSON-RPC batches are served only on a 2025-03-26 session (protocol revision 2025-03-26 allows them, later ones do not); this connection negotiated ${revision}`,
      },
    });
    server.write(ping(3));
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  }, 60_000);
});

test('before initialize a batch is refused: there is no session yet', async () => {
  const server = peer();
  server.write([ping(1)]);
  const answer = (await server.next()) as { error: { code: number; message: string } };
  expect(answer.error.code).toBe(-32600);
  expect(answer.error.message).toMatch(/this connection has no session yet$/);
}, 60_000);
