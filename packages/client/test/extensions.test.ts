import { afterEach, describe, expect, test } from 'vitest';

import { Client } from '../src/index.ts';
import { capabilitiesFor } from '../src/inputAnswerer.ts';
import {
  startRawHandshakeTaskServer,
  type RawHandshakeTaskServer,
} from './helpers/rawHandshakeTaskServer.ts';
import { startRawTaskServer, type RawTaskServer } from './helpers/rawTaskServer.ts';

/**
 * The `extensions` option: what the client declares beyond its handlers, seen by servers written
 * by hand on real HTTP, in each era (the modern one on every request, the handshake one in
 * `initialize`), beside the tasks extension or without it.
 */

const UI = 'io.modelcontextprotocol/ui';
const TASKS = 'io.modelcontextprotocol/tasks';
const APPS = { mimeTypes: ['text/html;profile=mcp-app'] };

let client: Client | undefined;
let modern: RawTaskServer | undefined;
let handshake: RawHandshakeTaskServer | undefined;

afterEach(async () => {
  await client?.close();
  await modern?.close();
  await handshake?.close();
  client = modern = handshake = undefined;
});

const deploy = [{ result: () => ({ content: [{ type: 'text', text: 'done' }] }) }];

describe('extensions', () => {
  test('modern era: each request declares them, beside tasks, and no elicitation without a handler', async () => {
    modern = await startRawTaskServer({ tools: { deploy }, immediate: ['deploy'] });
    client = new Client(modern.url, { mode: 'modern', extensions: { [UI]: APPS } });
    await client.connect();
    await client.callTool('deploy');
    const call = modern.received.find((request) => request.method === 'tools/call');
    const declared = (call?.params._meta as Record<string, unknown>)[
      'io.modelcontextprotocol/clientCapabilities'
    ];
    expect(declared).toEqual({ extensions: { [UI]: APPS, [TASKS]: {} } });
  });

  test('handshake era: initialize declares them; with tasks: false, only them', async () => {
    handshake = await startRawHandshakeTaskServer({});
    client = new Client(handshake.url, {
      mode: 'handshake',
      tasks: false,
      extensions: { [UI]: APPS },
    });
    await client.connect();
    const initialize = handshake.received.find((request) => request.method === 'initialize');
    expect(initialize?.params.capabilities).toEqual({ extensions: { [UI]: APPS } });
  });

  test('none given: nothing but what the handlers and tasks declare', () => {
    expect(capabilitiesFor({ tasks: false })).toEqual({});
    expect(capabilitiesFor({ tasks: false, extensions: {} })).toEqual({});
    expect(capabilitiesFor({ tasks: true })).toEqual({ extensions: { [TASKS]: {} } });
  });

  test('what is not a set of extension settings is refused, naming the problem', () => {
    const url = 'http://127.0.0.1:1/mcp';
    expect(() => new Client(url, { extensions: [] as never })).toThrow(
      /^Client: extensions must be an object of extension settings by id/,
    );
    expect(() => new Client(url, { extensions: { [UI]: true } as never })).toThrow(
      new TypeError(`Client: extensions["${UI}"] must be an object (its settings, {} for none).`),
    );
    expect(() => new Client(url, { extensions: { [TASKS]: {} } })).toThrow(
      new TypeError(`Client: extensions may not name ${TASKS}; the tasks option declares it.`),
    );
  });
});
