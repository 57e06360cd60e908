import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

/**
 * A stdio server is a real child process; nothing written to its stdin can stop it. Each
 * malformed line gets a JSON-RPC error (or, for a broken notification or response, nothing),
 * and the server goes on serving both eras.
 */

const main = fileURLToPath(new URL('../fixtures/seedServerMain.ts', import.meta.url));
let child: ChildProcess;
const lines: Record<string, unknown>[] = [];
let waiters: (() => void)[] = [];

beforeAll(() => {
  child = spawn(process.execPath, ['--conditions=@parley/source', '--import', 'tsx', main], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of waiters) wake();
    waiters = [];
  });
});
afterAll(() => void child?.kill());

function write(text: string | Buffer): void {
  child.stdin?.write(text);
}

/** The next `count` lines the server writes. */
async function next(count: number, timeoutMs = 20_000): Promise<Record<string, unknown>[]> {
  const deadline = Date.now() + timeoutMs;
  while (lines.length < count && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 100);
    });
  }
  return lines.splice(0, count);
}

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('malformed lines on stdio', () => {
  test('each gets its JSON-RPC error, and the server keeps serving both eras', async () => {
    const malformed: [string | Buffer, number | undefined][] = [
      ['not json\n', -32700],
      ['{"jsonrpc":\n', -32700],
      ['\u0000\u0001\u0002\n', -32700],
      [Buffer.from([0xff, 0xfe, 0x0a]), -32700],
      ['[]\n', -32600],
      ['[1,2]\n', -32600],
      ['"text"\n', -32600],
      ['42\n', -32600],
      ['null\n', -32600],
      ['{}\n', -32600],
      ['{"jsonrpc":"1.0","id":1,"method":"ping"}\n', -32600],
      ['{"jsonrpc":"2.0","id":{},"method":"ping"}\n', -32600],
      ['{"jsonrpc":"2.0","id":1,"method":7}\n', -32600],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}\n', -32600],
      ['{"jsonrpc":"2.0","result":{}}\n', -32600],
      // a notification that is wrong is not answered
      ['{"jsonrpc":"2.0","method":"notifications/x","params":5}\n', undefined],
      // a line far over the limit, in pieces: dropped as it arrives
      [`{"a":"${'x'.repeat(5 * 1024 * 1024)}"}\n`, -32600],
      // an empty line and a CRLF line are nothing
      ['\n', undefined],
      ['\r\n', undefined],
    ];
    let expected = 0;
    for (const [line, code] of malformed) {
      write(line);
      if (code !== undefined) expected++;
    }
    const errors = await next(expected);
    expect(errors.map((message) => (message.error as { code: number }).code)).toEqual(
      malformed.flatMap(([, code]) => (code === undefined ? [] : [code])),
    );
    for (const message of errors) {
      expect((message.error as { message: string }).message).not.toMatch(/Internal error/);
    }
    expect(child.exitCode).toBeNull();

    // The modern era, then the handshake, on the same process.
    write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'd', method: 'server/discover', params: { _meta: META } })}\n`,
    );
    const [discover] = await next(1);
    expect(discover?.id).toBe('d');
    expect((discover?.result as { supportedVersions: string[] }).supportedVersions).toContain(
      '2026-07-28',
    );
    write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 'i',
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 't', version: '1' },
        },
      })}\n`,
    );
    const [init] = await next(1);
    expect((init?.result as { protocolVersion: string }).protocolVersion).toBe('2025-11-25');
    write('garbage after the handshake\n');
    write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    write(`${JSON.stringify({ jsonrpc: '2.0', id: 't', method: 'tools/list' })}\n`);
    const [parseError, tools] = await next(2);
    expect((parseError?.error as { code: number }).code).toBe(-32700);
    expect(tools?.id).toBe('t');
    expect((tools?.result as { tools: unknown[] }).tools.length).toBeGreaterThan(5);
    expect(child.exitCode).toBeNull();
  }, 60_000);
});
