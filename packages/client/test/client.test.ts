import { describe, expect, test } from 'vitest';

import { Client, type ClientOptions, type ClientTarget } from '../src/index.ts';
import { freshSeen, sdkV2Target } from './helpers/sdkV2Server.ts';

/** What `new Client()` accepts, what it refuses (and how it says so), and its lifecycle. */

const server = sdkV2Target(freshSeen());

describe('targets', () => {
  test.each<[string, ClientTarget]>([
    ['an in-process server', server],
    ['an http URL string', 'http://127.0.0.1:3001/mcp'],
    ['a URL object', new URL('https://example.com/mcp')],
    ['a stdio command', { command: 'node', args: ['server.js'], env: { A: '1' }, cwd: '/tmp' }],
  ])('accepts %s', (_name, target) => {
    expect(() => new Client(target)).not.toThrow();
  });

  test.each<[unknown, string | RegExp]>([
    ['not a url', 'Client: "not a url" is not a URL.'],
    ['ftp://example.com', 'Client: a server URL must be http: or https:, got ftp:'],
    [{ command: '' }, 'Client: a stdio target needs command, a non-empty string.'],
    [
      { command: 'node', args: 'server.js' },
      'Client: args of a stdio target must be an array of strings.',
    ],
    [
      { command: 'node', env: { A: 1 } },
      'Client: env of a stdio target must map names to strings.',
    ],
    [{ command: 'node', stderr: 'loud' }, /stderr of a stdio target/],
    [{ connect() {} }, /the target must be a server instance/],
    [42, /the target must be a server instance/],
  ])('refuses %j', (target, message) => {
    expect(() => new Client(target as ClientTarget)).toThrow(message);
    expect(() => new Client(target as ClientTarget)).toThrow(TypeError);
  });
});

describe('options', () => {
  test.each<[ClientOptions, ErrorConstructor, string | RegExp]>([
    [
      { mode: 'legacy' as never },
      TypeError,
      `Client: mode must be 'auto', 'modern' or 'handshake', got "legacy".`,
    ],
    [
      { maxRounds: -1 },
      RangeError,
      'Client: maxRounds must be a whole number of rounds (0 or more), got -1.',
    ],
    [{ maxRounds: 2.5 }, RangeError, /maxRounds/],
    [{ maxRounds: Infinity }, RangeError, /maxRounds/],
    [{ timeoutMs: 0 }, RangeError, /^Client: timeoutMs must be a positive number/],
    [
      { elicitationHandler: 'yes' as never },
      TypeError,
      'Client: elicitationHandler must be a function.',
    ],
    [{ samplingHandler: {} as never }, TypeError, 'Client: samplingHandler must be a function.'],
    [{ onRound: 1 as never }, TypeError, 'Client: onRound must be a function.'],
    [{ roots: 'file:///' as never }, TypeError, /^Client: roots must be a list/],
    [{ roots: [{ uri: 'not a uri' }] }, TypeError, /roots: entry 0/],
    [
      { clientInfo: { name: 'x' } as never },
      TypeError,
      'Client: clientInfo needs a name and a version, both strings.',
    ],
  ])('refuses %j', (options, type, message) => {
    expect(() => new Client(server, options)).toThrow(type);
    expect(() => new Client(server, options)).toThrow(message);
  });

  test('per-call options are checked the same way, named after the call', async () => {
    await using client = new Client(server);
    await client.connect();
    await expect(client.callTool('scalar_output', {}, { maxRounds: -2 })).rejects.toThrow(
      'callTool: maxRounds must be a whole number of rounds (0 or more), got -2.',
    );
    await expect(client.getPrompt('greet', {}, { timeoutMs: -1 })).rejects.toThrow(RangeError);
    await expect(client.readResource('test://asks', { signal: 'no' as never })).rejects.toThrow(
      'readResource: signal must be an AbortSignal.',
    );
    await expect(client.callTool('', {})).rejects.toThrow(
      'callTool: the tool name must be a non-empty string.',
    );
    await expect(client.callTool('x', [] as never)).rejects.toThrow(
      'callTool: arguments must be an object.',
    );
  });
});

describe('lifecycle', () => {
  test('connect twice is one connection; close twice is fine; lists work in between', async () => {
    const client = new Client(server);
    await Promise.all([client.connect(), client.connect()]);
    await client.connect();
    expect((await client.listTools()).map((tool) => tool.name)).toContain('book_trip');
    expect((await client.listPrompts()).map((prompt) => prompt.name)).toEqual(['greet']);
    expect((await client.listResources()).map((resource) => resource.uri)).toEqual(['test://asks']);
    expect(await client.listResourceTemplates()).toEqual([]);
    await client.close();
    await client.close();
    expect(client.era).toBeUndefined();
    await expect(client.listTools()).rejects.toThrow(/not connected/);
  });

  test('a closed client can connect again', async () => {
    const client = new Client(server, { mode: 'handshake' });
    await client.connect();
    await client.close();
    await client.connect();
    expect(client.era).toBe('handshake');
    await client.close();
  });

  test('await using closes the client', async () => {
    let escaped: Client | undefined;
    {
      await using client = new Client(server);
      await client.connect();
      escaped = client;
      expect(escaped.era).toBe('modern');
    }
    expect(escaped.era).toBeUndefined();
  });
});
