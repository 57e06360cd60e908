import { describe, expect, test } from 'vitest';

import { splitCommandLine } from '../src/commandLine.ts';
import { parseCommandLine } from '../src/parseArgs.ts';
import { UsageError } from '../src/usage.ts';

const URL = 'http://127.0.0.1:3001/mcp';
const defaults = {
  mode: 'auto',
  serverStderr: false,
  noElicitation: false,
  asAppHost: false,
  json: false,
};

describe('commands', () => {
  test('help: no arguments, help, -h, --help anywhere', () => {
    for (const argv of [[], ['help'], ['-h'], ['--help'], ['call', URL, 'x', '--help']]) {
      expect(parseCommandLine(argv)).toEqual({ kind: 'help' });
    }
  });

  test('tools, prompts and resources <url>', () => {
    for (const kind of ['tools', 'prompts', 'resources']) {
      expect(parseCommandLine([kind, URL])).toEqual({
        kind,
        target: { kind: 'http', url: URL },
        ...defaults,
      });
    }
  });

  test('call <url> <tool> with key=value and --args', () => {
    expect(
      parseCommandLine([
        'call',
        URL,
        'cancel_booking',
        'id=BK-0001',
        'note=a=b',
        '--args',
        '{"n":1}',
      ]),
    ).toEqual({
      kind: 'call',
      target: { kind: 'http', url: URL },
      name: 'cancel_booking',
      args: {
        json: { n: 1 },
        pairs: [
          ['id', 'BK-0001'],
          ['note', 'a=b'],
        ],
      },
      ...defaults,
    });
  });

  test('prompt and read', () => {
    expect(parseCommandLine(['prompt', URL, 'summarize'])).toMatchObject({
      kind: 'prompt',
      name: 'summarize',
    });
    expect(parseCommandLine(['read', URL, 'report://summary'])).toMatchObject({
      kind: 'read',
      uri: 'report://summary',
    });
  });

  test('--as-app-host, on parley call', () => {
    expect(parseCommandLine(['call', URL, 'book_flight', '--as-app-host'])).toMatchObject({
      kind: 'call',
      asAppHost: true,
      noElicitation: false,
    });
  });

  test('--json, on any command', () => {
    expect(parseCommandLine(['call', URL, 'greet', '--json'])).toMatchObject({ json: true });
    expect(parseCommandLine(['tools', '--json', URL])).toMatchObject({ json: true });
  });

  test('--mode, --timeout, --server-stderr', () => {
    expect(
      parseCommandLine([
        'call',
        '--mode',
        'handshake',
        URL,
        'greet',
        '--timeout',
        '5000',
        '--server-stderr',
      ]),
    ).toMatchObject({
      mode: 'handshake',
      timeoutMs: 5000,
      serverStderr: true,
    });
  });
});

describe('stdio servers', () => {
  test('-- <command> takes everything after it, the tool comes before it', () => {
    expect(
      parseCommandLine([
        'call',
        'book_flight',
        '--',
        'node',
        'server.js',
        '--stdio',
        '--mode',
        'x',
      ]),
    ).toMatchObject({
      kind: 'call',
      name: 'book_flight',
      target: {
        kind: 'stdio',
        command: { command: 'node', args: ['server.js', '--stdio', '--mode', 'x'] },
      },
      mode: 'auto',
    });
  });

  test('--stdio "<command line>" is split like a shell would', () => {
    expect(
      parseCommandLine(['tools', '--stdio', `node "my server.js" --name 'a b' c\\ d`]),
    ).toMatchObject({
      target: {
        kind: 'stdio',
        command: { command: 'node', args: ['my server.js', '--name', 'a b', 'c d'] },
      },
    });
  });

  test('splitCommandLine keeps empty quoted words and escapes in double quotes', () => {
    expect(splitCommandLine(`a '' "x\\"y" "\\\\" z`)).toEqual(['a', '', 'x"y', '\\', 'z']);
    expect(() => splitCommandLine(`node "oops`)).toThrow(UsageError);
  });
});

describe('proxy', () => {
  test('over stdio by default, to an HTTP or a stdio upstream', () => {
    expect(parseCommandLine(['proxy', URL, '--mode', 'modern'])).toEqual({
      kind: 'proxy',
      target: { kind: 'http', url: URL },
      serve: { kind: 'stdio' },
      ...defaults,
      mode: 'modern',
    });
    expect(parseCommandLine(['proxy', '--', 'node', 'server.js'])).toMatchObject({
      kind: 'proxy',
      target: { kind: 'stdio', command: { command: 'node', args: ['server.js'] } },
      serve: { kind: 'stdio' },
    });
  });

  test('--port and --host serve over HTTP (127.0.0.1:3000 unless given)', () => {
    expect(parseCommandLine(['proxy', URL, '--port', '0'])).toMatchObject({
      serve: { kind: 'http', host: '127.0.0.1', port: 0 },
    });
    expect(parseCommandLine(['proxy', URL, '--host', '0.0.0.0'])).toMatchObject({
      serve: { kind: 'http', host: '0.0.0.0', port: 3000 },
    });
    expect(parseCommandLine(['proxy', URL, '--held-timeout', '5000'])).toMatchObject({
      heldCallTimeoutMs: 5000,
    });
  });
});

describe('usage errors say what to type', () => {
  test.each([
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['tools'], /needs a server: a URL, --stdio/],
    [['tools', 'localhost:3001'], /is not a server URL/],
    [['tools', 'ftp://example.com'], /is not a server URL/],
    [['call', URL], /needs the name of the tool \(parley tools <target> lists them\)/],
    [['prompt', URL], /needs the name of the prompt \(parley prompts <target> lists them\)/],
    [['read', URL], /needs the URI of a resource \(parley resources <target> lists them\)/],
    [['prompts', URL, 'extra'], /parley prompts takes no more than the server/],
    [['resources', URL, '--args', '{}'], /parley resources takes no --args/],
    [['call', URL, 'x', 'novalue'], /key=value, got "novalue"/],
    [['call', URL, 'x', '--args', '[1]'], /--args must be a JSON object/],
    [['call', URL, 'x', '--args', '{'], /--args is not JSON/],
    [['call', URL, 'x', '--mode', 'fast'], /--mode must be one of auto, modern, handshake/],
    [['call', URL, 'x', '--timeout', '0'], /--timeout must be a positive number/],
    [['call', URL, 'x', '--wat'], /Unknown option '--wat'/],
    [['tools', URL, 'extra'], /takes no more than the server/],
    [['tools', '--stdio', 'a', '--', 'b'], /either --stdio .* or -- <command>, not both/],
    [['tools', '--'], /-- needs a command to start/],
    [['prompt', URL, 'x', '--as-app-host'], /--as-app-host is for parley call/],
    [['read', URL, 'x', '--as-app-host'], /not for parley read/],
    [['proxy', URL, 'extra'], /parley proxy takes the upstream server and --mode/],
    [['proxy', URL, '--json'], /parley proxy takes the upstream server/],
    [['proxy', URL, '--port', 'http'], /--port must be a port number/],
    [['proxy', URL, '--held-timeout', '0'], /--held-timeout must be a positive number/],
    [['tools', URL, '--port', '3000'], /--port and --host are for parley proxy/],
  ])('%j', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});
