import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  InMemoryTransport,
  Server,
  type CallToolResult,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { afterEach, describe, expect, test } from 'vitest';

import {
  HookedServer,
  SDK_MEMBERS_RELIED_ON,
  SDK_VERSION_RELIED_ON,
  type SdkRequestHandler,
  type SdkWrap,
} from '../../src/handshake/sdkInternals.ts';
import { ParleyServer, type RunningServer } from '../../src/index.ts';

/**
 * The SDK's protected and private members that `handshake/sdkInternals.ts` relies on, checked on
 * the SDK actually installed: that each is still there with the shape it had, and that Parley's
 * use of it still takes effect, through a real SDK `Server` and `Client` and through a Parley
 * server over HTTP on 127.0.0.1. A failure names the member and the SDK version.
 */

/** The installed SDK's version (its package.json is not exported: found beside its entry). */
function installedSdkVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server'));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version: string;
      };
      if (manifest.name === '@modelcontextprotocol/server') return manifest.version;
    } catch {
      // not this directory
    }
    const up = dirname(dir);
    if (up === dir)
      throw new Error('the installed @modelcontextprotocol/server has no package.json');
    dir = up;
  }
}

const installed = installedSdkVersion();
const { wrapHandler, logLevelSeverity } = SDK_MEMBERS_RELIED_ON;

/** How a failure names the member: which one, on which SDK, read from which. */
function member(name: string): string {
  return `Server#${name} of @modelcontextprotocol/server ${installed} (handshake/sdkInternals.ts relies on it as it was in ${SDK_VERSION_RELIED_ON})`;
}

/** A request's result, or what it was refused with (so a refusal fails with the member's name). */
function outcome(pending: Promise<unknown>): Promise<{ result: unknown } | { error: unknown }> {
  return pending.then(
    (result) => ({ result }),
    (error: unknown) => ({ error: { ...(error as object), message: String(error) } }),
  );
}

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

describe(`the SDK internals @parley/server relies on (@modelcontextprotocol/server ${installed})`, () => {
  test('the installed SDK is the version they were read from, and the one package.json pins', () => {
    const pinned = (
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies['@modelcontextprotocol/server'];
    const advice = `@modelcontextprotocol/server is ${installed} (package.json pins ${pinned}); handshake/sdkInternals.ts was checked against ${SDK_VERSION_RELIED_ON}: check every member it names on the new version, then update SDK_VERSION_RELIED_ON`;
    expect(installed, advice).toBe(SDK_VERSION_RELIED_ON);
    expect(pinned, advice).toBe(SDK_VERSION_RELIED_ON);
  });

  test(`${wrapHandler}: a method of (method, handler) on Server`, () => {
    const hook: unknown = Reflect.get(Server.prototype, wrapHandler);
    expect(typeof hook, `${member(wrapHandler)} is no longer a method`).toBe('function');
    expect(
      (hook as (...args: unknown[]) => unknown).length,
      `${member(wrapHandler)} no longer takes (method, handler)`,
    ).toBe(2);
  });

  test(`${logLevelSeverity}: each server's own Map of the eight log levels, ranked; a HookedServer shares the first one's`, () => {
    const info = { name: 'probe', version: '1.0.0' };
    const options = { capabilities: { logging: {} } };
    const plain = [new Server(info, options), new Server(info, options)];
    const tables = plain.map((server): unknown => Reflect.get(server, logLevelSeverity));
    expect(tables[0], `${member(logLevelSeverity)} is no longer a Map`).toBeInstanceOf(Map);
    expect(
      [...(tables[0] as Map<string, number>)],
      `${member(logLevelSeverity)} no longer ranks the log levels from debug (0) to emergency (7)`,
    ).toEqual(LEVELS.map((level, rank) => [level, rank]));
    expect(tables[1], `${member(logLevelSeverity)} is no longer made per server`).not.toBe(
      tables[0],
    );

    const hooked = [new HookedServer(info, options), new HookedServer(info, options)];
    const shared = hooked.map((server): unknown => Reflect.get(server, logLevelSeverity));
    expect(shared[1], `HookedServer no longer shares ${member(logLevelSeverity)}`).toBe(shared[0]);
    expect([...(shared[0] as Map<string, number>)]).toEqual(LEVELS.map((l, rank) => [l, rank]));
  });
});

/** What the probe's hook saw: filled while the SDK constructs it, before any field of its own. */
const hooked: string[] = [];
const RESULT: unique symbol = Symbol('probe.result');
const ANY: StandardSchemaV1 = {
  '~standard': { version: 1, vendor: 'probe', validate: (value: unknown) => ({ value }) },
};

/** A HookedServer wrapping `tools/call` as the session server does: the SDK checks afterwards. */
class ProbeServer extends HookedServer {
  protected override parleyWrapHandler(
    method: string,
    handler: SdkRequestHandler,
    sdkWrap: SdkWrap,
  ): SdkRequestHandler {
    hooked.push(method);
    if (method !== 'tools/call') return sdkWrap(method, handler);
    const check = sdkWrap(method, (_request, ctx) =>
      Promise.resolve((ctx as { [RESULT]?: unknown })[RESULT] as never),
    );
    return (request, ctx) =>
      handler(request, ctx).then((result) =>
        check(request, { ...ctx, [RESULT]: result } as typeof ctx),
      );
  }
}

describe(`${wrapHandler} through a real SDK Server and Client`, () => {
  test('every registered handler passes the hook; the SDK’s wrapping hands the context on and checks the result', async () => {
    hooked.length = 0;
    const server = new ProbeServer(
      { name: 'probe', version: '1.0.0' },
      { capabilities: { tools: {}, logging: {} } },
    );
    expect(hooked, `${member(wrapHandler)} is not called for the SDK's own handlers`).toEqual(
      expect.arrayContaining(['initialize', 'logging/setLevel']),
    );
    server.setRequestHandler('tools/call', (request): CallToolResult =>
      request.params.name === 'good'
        ? { content: [{ type: 'text', text: 'checked after the call' }] }
        : ({ content: 'not a content list' } as never),
    );
    expect(hooked.at(-1), `${member(wrapHandler)} is not called by setRequestHandler`).toBe(
      'tools/call',
    );
    const client = new Client({ name: 'probe-client', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    await client.connect(clientSide);
    try {
      const call = (name: string) =>
        outcome(client.request({ method: 'tools/call', params: { name, arguments: {} } }, ANY));
      expect(
        await call('good'),
        `${member(wrapHandler)} no longer hands the handler the context it was given`,
      ).toEqual({ result: { content: [{ type: 'text', text: 'checked after the call' }] } });
      expect(
        await call('bad'),
        `${member(wrapHandler)} no longer checks a tools/call result`,
      ).toMatchObject({
        error: { code: -32602, message: expect.stringContaining('Invalid tools/call result') },
      });
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe('the session server over HTTP on 127.0.0.1, with a real SDK client', () => {
  let running: RunningServer | undefined;
  afterEach(async () => {
    await running?.close({ graceMs: 0 });
    running = undefined;
  });

  async function connect(url: string): Promise<{ client: Client; messages: unknown[] }> {
    const messages: unknown[] = [];
    const client = new Client({ name: 'sdk-internals', version: '1.0.0' });
    client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params.data);
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return { client, messages };
  }

  test(`${wrapHandler}: a call for a task answers with the task, which the SDK’s own check would refuse; a plain call is checked after it ran`, async () => {
    const mcp = new ParleyServer({ name: 'internals', onWarning: () => {}, onError: () => {} });
    mcp.tool('later', { task: 'optional' }, () => 'done');
    running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
    const { client } = await connect(running.url as string);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const plain = await client.callTool({ name: 'later', arguments: {} });
      expect(plain.content).toEqual([{ type: 'text', text: 'done' }]);
      const created = await outcome(
        client.request(
          { method: 'tools/call', params: { name: 'later', arguments: {}, task: { ttl: 60_000 } } },
          ANY,
        ),
      );
      expect(
        created,
        `${member(wrapHandler)}: Parley's override no longer takes effect`,
      ).toMatchObject({ result: { task: { taskId: expect.any(String), status: 'working' } } });
    } finally {
      await client.close();
    }
  });

  test(`${logLevelSeverity}: each session's log level still filters, with the shared ranks`, async () => {
    const mcp = new ParleyServer({ name: 'internals', onWarning: () => {}, onError: () => {} });
    mcp.tool('chatty', async (_args, ctx) => {
      for (const level of ['debug', 'info', 'warning', 'error'] as const)
        await ctx.log(level, level);
      return 'logged';
    });
    running = await mcp.run({ transport: 'http', port: 0, host: '127.0.0.1' });
    const quiet = await connect(running.url as string);
    const loud = await connect(running.url as string);
    try {
      await quiet.client.setLoggingLevel('warning');
      await loud.client.setLoggingLevel('debug');
      await quiet.client.callTool({ name: 'chatty', arguments: {} });
      await loud.client.callTool({ name: 'chatty', arguments: {} });
      expect(quiet.messages, member(logLevelSeverity)).toEqual(['warning', 'error']);
      expect(loud.messages, member(logLevelSeverity)).toEqual([
        'debug',
        'info',
        'warning',
        'error',
      ]);
    } finally {
      await quiet.client.close();
      await loud.client.close();
    }
  });
});
