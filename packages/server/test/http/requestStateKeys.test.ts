import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, test, vi } from 'vitest';

import { ParleyServer, elicitRequest } from '../../src/index.ts';
import { rawModernCall } from '../helpers/rawModern.ts';

/**
 * Where the request-state key ring comes from (`requestStateSecurity.keys`, else
 * `REQUEST_STATE_KEY`), what `run()` over HTTP says without one (a warning; under
 * `NODE_ENV=production` a refusal, unless `allowEphemeralKeys`), and a busy port. What depends on
 * the environment runs in real child processes on 127.0.0.1.
 */

const fixture = fileURLToPath(new URL('../fixtures/keyRingMain.ts', import.meta.url));
const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};

interface Child {
  url: string | undefined;
  stderr: string[];
  exitCode: Promise<number | null>;
  stop(): void;
}

const children: Child[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.stop();
});

/** The fixture with `env` over an environment that has no key ring and is not production. */
async function start(env: Record<string, string>): Promise<Child> {
  const inherited = { ...process.env };
  delete inherited.REQUEST_STATE_KEY;
  delete inherited.ALLOW_EPHEMERAL_KEYS;
  const child = spawn(
    process.execPath,
    ['--conditions=@parley/source', '--import', 'tsx', fixture],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...inherited, NODE_ENV: 'development', ...env },
    },
  );
  const stderr: string[] = [];
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  const exitCode = once(child, 'exit').then(([code]) => code as number | null);
  const url = await Promise.race([
    once(createInterface({ input: child.stdout }), 'line').then(([line]) => line as string),
    exitCode.then(() => undefined),
  ]);
  const started: Child = { url, stderr, exitCode, stop: () => child.kill() };
  children.push(started);
  return started;
}

async function greet(url: string, params: Record<string, unknown> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'greet',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'greet', arguments: {}, _meta: ENVELOPE, ...params },
    }),
  });
  return (await response.json()) as {
    result?: { requestState?: string; content?: { text: string }[] };
    error?: { message: string };
  };
}

/** Ask on `sealer`, answer on `opener`: the greeting, or the error the opener answered with. */
async function askHereAnswerThere(sealer: string, opener: string): Promise<string> {
  const asked = await greet(sealer);
  expect(asked.result?.requestState).toMatch(/^ps1\./);
  const answered = await greet(opener, {
    inputResponses: { name: { action: 'accept', content: { value: 'Ada' } } },
    requestState: asked.result?.requestState,
  });
  return answered.result?.content?.[0]?.text ?? `error: ${answered.error?.message}`;
}

const warning = (stderr: string[]) =>
  stderr.filter((line) => line.includes('no request-state key ring is set'));

describe('REQUEST_STATE_KEY', () => {
  test('two processes with the same ring in the environment open each other’s state (in production, without a warning)', async () => {
    // The first seals with A; the second seals with B and still opens A: a ring mid-rotation.
    const [first, second] = await Promise.all([
      start({ REQUEST_STATE_KEY: KEY_A, NODE_ENV: 'production' }),
      start({ REQUEST_STATE_KEY: ` ${KEY_B}, ${KEY_A} `, NODE_ENV: 'production' }),
    ]);
    expect(await askHereAnswerThere(first.url!, second.url!)).toBe('Hello, Ada!');
    expect(warning([...first.stderr, ...second.stderr])).toEqual([]);
  });

  test('without a ring, each process has its own key: the other refuses the state, and each said so at start-up', async () => {
    const [first, second] = await Promise.all([start({}), start({})]);
    expect(await askHereAnswerThere(first.url!, second.url!)).toBe(
      'error: Invalid or expired requestState',
    );
    for (const child of [first, second]) {
      expect(warning(child.stderr)).toEqual([
        '[parley] warning: no request-state key ring is set, so this process seals requestState ' +
          'with a random key of its own: a multi-round call will not survive a restart or cross ' +
          'replicas (InvalidRequestStateError, unknown-key); give every replica the same key ' +
          'ring: REQUEST_STATE_KEY=$(npx @parley/state-sealing keygen) in the environment, or ' +
          'requestStateSecurity.keys (requestStateSecurity.allowEphemeralKeys: true silences ' +
          'this when one process is meant).',
      ]);
    }
    await vi.waitFor(() =>
      expect(second.stderr).toContain(
        '[parley] tools/call greet: requestState rejected: unknown-key',
      ),
    );
  });

  test('a ring in the environment that cannot seal stops the server, naming the variable', async () => {
    const child = await start({ REQUEST_STATE_KEY: `${KEY_A},short` });
    expect(child.url).toBeUndefined();
    expect(await child.exitCode).not.toBe(0);
    expect(child.stderr.join('\n')).toContain(
      'ParleyServer: REQUEST_STATE_KEY is not a usable key ring (comma-separated secrets, the ' +
        'first seals, all open): keys[1] is 5 bytes; secrets must be at least 32 bytes of secret ' +
        'randomness (npx @parley/state-sealing keygen)',
    );
  });
});

describe('NODE_ENV=production without a key ring', () => {
  test('run() over HTTP refuses to start, saying what to set', async () => {
    const child = await start({ NODE_ENV: 'production' });
    expect(child.url).toBeUndefined();
    expect(await child.exitCode).toBe(1);
    expect(child.stderr).toEqual([
      '[run rejected] code=undefined message=ParleyServer: NODE_ENV is production and no ' +
        'request-state key ring is set, so sealed state would not survive a restart or cross ' +
        'replicas; give every replica the same key ring: REQUEST_STATE_KEY=$(npx ' +
        '@parley/state-sealing keygen) in the environment, or requestStateSecurity.keys (or ' +
        'requestStateSecurity.allowEphemeralKeys: true when one process is meant).',
    ]);
  });

  test('allowEphemeralKeys: true starts it, without a warning', async () => {
    const child = await start({ NODE_ENV: 'production', ALLOW_EPHEMERAL_KEYS: '1' });
    expect(await askHereAnswerThere(child.url!, child.url!)).toBe('Hello, Ada!');
    expect(warning(child.stderr)).toEqual([]);
  });
});

describe('in one process', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  function asker(keys?: string[]): ParleyServer {
    const mcp = new ParleyServer({
      name: 'key-ring',
      ...(keys !== undefined ? { requestStateSecurity: { keys } } : {}),
    });
    return mcp.tool('greet', async (_args, ctx) => {
      const name = await ctx.ask(
        'name',
        elicitRequest("What's your name?", String, { responseTitle: 'Name' }),
      );
      return name.action === 'accept' ? `Hello, ${name.data}!` : 'Hello, stranger!';
    });
  }

  test('requestStateSecurity.keys wins over REQUEST_STATE_KEY', async () => {
    vi.stubEnv('REQUEST_STATE_KEY', KEY_B);
    const sealer = asker([KEY_A]);
    vi.unstubAllEnvs();
    const asked = await rawModernCall(sealer, { name: 'greet' });
    const requestState = asked.body.result?.requestState;
    const answer = { name: { action: 'accept', content: { value: 'Ada' } } };
    const byA = await rawModernCall(asker([KEY_A]), {
      name: 'greet',
      inputResponses: answer,
      requestState,
    });
    expect(byA.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    const onError = vi.fn();
    const byB = new ParleyServer({
      name: 'key-ring',
      requestStateSecurity: { keys: [KEY_B] },
      onError,
    }).tool('greet', async () => 'unreachable');
    const refused = await rawModernCall(byB, {
      name: 'greet',
      inputResponses: answer,
      requestState,
    });
    expect(refused.body.error?.message).toBe('Invalid or expired requestState');
    expect(onError).toHaveBeenCalledOnce();
    expect((onError.mock.calls[0]?.[0] as { data?: { reason?: string } }).data?.reason).toBe(
      'unknown-key',
    );
  });

  test('allowEphemeralKeys must be a boolean', () => {
    expect(
      () =>
        new ParleyServer({
          name: 'x',
          requestStateSecurity: { allowEphemeralKeys: 'yes' as unknown as boolean },
        }),
    ).toThrow(
      'ParleyServer: requestStateSecurity.allowEphemeralKeys must be true or false (got "yes").',
    );
  });

  test('a busy port: run() rejects with one sentence that names it, code EADDRINUSE kept', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const mcp = new ParleyServer({
        name: 'busy',
        requestStateSecurity: { allowEphemeralKeys: true },
      });
      const refused = await mcp.run({ transport: 'http', port }).then(
        () => expect.unreachable('run() resolved on a busy port'),
        (error: unknown) => error as NodeJS.ErrnoException,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(refused.message).toBe(
        `ParleyServer: port ${port} on 127.0.0.1 is in use (EADDRINUSE); pass another port to ` +
          'run({ port }) or stop what holds it.',
      );
      expect(refused.code).toBe('EADDRINUSE');
      expect((refused.cause as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
    } finally {
      holder.close();
    }
  });
});
