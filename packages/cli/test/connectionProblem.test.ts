import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { runCli } from '../src/runCli.ts';
import { repoRoot } from './helpers/demoApps.ts';
import { scriptedPrompter } from './helpers/scriptedPrompter.ts';

/**
 * A connection that fails says what to check, for each way it fails: real sockets on
 * 127.0.0.1 and real child processes, no fakes of either.
 */

async function failure(argv: string[]): Promise<{ code: number; error: string | undefined }> {
  const prompter = scriptedPrompter([]);
  let stderr = '';
  const code = await runCli(argv, {
    stdout: () => undefined,
    stderr: (text) => void (stderr += text),
    prompter,
    cwd: repoRoot,
  });
  const error = prompter.screen.find((line) => line.startsWith('error: '))?.slice(7);
  return { code, error: error ?? (stderr.replace(/^parley: /, '').trim() || undefined) };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An HTTP server that answers every request with `status`: not an MCP endpoint. */
let answering: Server;
let base = '';
beforeAll(async () => {
  answering = createHttpServer((request, response) => {
    const status = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('status'));
    response.writeHead(status || 404, { 'content-type': 'text/plain' });
    response.end('no MCP here');
  });
  await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(answering.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => answering.close(resolve)));

describe('over HTTP', () => {
  test.each(['auto', 'modern', 'handshake'])(
    'nothing listening (--mode %s): is the server running?',
    async (mode) => {
      const url = `http://127.0.0.1:${await closedPort()}/mcp`;
      const { code, error } = await failure(['call', url, 'greet', '--mode', mode]);
      expect(code).toBe(1);
      expect(error).toBe(
        `Nothing is listening at ${url}: is the server running, and on port ${new URL(url).port}?`,
      );
    },
  );

  test('the same for the listing commands, on stderr', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    expect(await failure(['tools', url])).toEqual({
      code: 1,
      error: `Nothing is listening at ${url}: is the server running, and on port ${new URL(url).port}?`,
    });
  });

  test('a wrong path: is it the MCP endpoint?', async () => {
    const { error } = await failure(['tools', `${base}/wrong`]);
    expect(error).toBe(
      `${base}/wrong answered HTTP 404 Not Found: is /wrong the server's MCP endpoint? (it is often /mcp)`,
    );
  });

  test('a server that wants authorization', async () => {
    const { error } = await failure(['tools', `${base}/mcp?status=401`]);
    expect(error).toBe(
      `${base}/mcp?status=401 answered HTTP 401 Unauthorized: the server wants authorization, which parley does not send.`,
    );
  });

  test('a host that does not exist', async () => {
    const { error } = await failure(['tools', 'http://no-such-host.invalid/mcp']);
    expect(error).toBe(
      'There is no host named no-such-host.invalid (http://no-such-host.invalid/mcp): check the URL.',
    );
  });
});

describe('over stdio', () => {
  test('a command that does not exist', async () => {
    const { code, error } = await failure(['tools', '--', 'parley-no-such-command']);
    expect(code).toBe(1);
    expect(error).toBe(
      'Could not start parley-no-such-command: there is no such command (is it installed, and on PATH?).',
    );
  });

  test('a command that exits at once', async () => {
    const { error } = await failure(['tools', '--', process.execPath, '-e', 'process.exit(3)']);
    expect(error).toBe(
      `${process.execPath} exited before it answered: run it on its own, or add --server-stderr to see why.`,
    );
  });
});
