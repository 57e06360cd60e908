import { parseArgs } from 'node:util';

import type { ClientMode, StdioServerCommand } from '@parley/client';
import { isRecord } from '@parley/core';
import { splitCommandLine } from './commandLine.ts';
import { UsageError } from './usage.ts';

/** A `parley` command line, read and checked; nothing is connected yet. */

export type ServerTarget =
  { kind: 'http'; url: string } | { kind: 'stdio'; command: StdioServerCommand };

/** Arguments as typed: a JSON object and/or `key=value` pairs (typed later, by the schema). */
export interface ArgumentSpec {
  json: Record<string, unknown>;
  pairs: [key: string, value: string][];
}

export interface CommonFlags {
  mode: ClientMode;
  timeoutMs?: number;
  serverStderr: boolean;
  /**
   * `--no-elicitation`: declare no elicitation, as many hosts do, to see what a server's tools
   * do for them (hidden, or their questions as arguments).
   */
  noElicitation: boolean;
  /**
   * `--as-app-host` (`parley call` only): connect as a host that draws MCP Apps and cannot
   * elicit, declaring the UI extension and nothing else, and answer the questions the App would
   * show in the terminal.
   */
  asAppHost: boolean;
  /**
   * `--json`: stdout gets the result as one JSON document (the object `@parley/client` returns,
   * or the list), and nothing else; everything else goes to stderr as always.
   */
  json: boolean;
}

export type CliCommand =
  | { kind: 'help' }
  | ({ kind: ListKind; target: ServerTarget } & CommonFlags)
  | ({
      kind: 'call' | 'prompt';
      target: ServerTarget;
      name: string;
      args: ArgumentSpec;
    } & CommonFlags)
  | ({ kind: 'read'; target: ServerTarget; uri: string } & CommonFlags)
  | ({
      kind: 'proxy';
      target: ServerTarget;
      serve: ProxyServe;
      heldCallTimeoutMs?: number;
    } & CommonFlags);

/** Where `parley proxy` serves its downstream client: stdio (default), or HTTP. */
export type ProxyServe = { kind: 'stdio' } | { kind: 'http'; host: string; port: number };

/** The commands that list what a server offers. */
export type ListKind = 'tools' | 'prompts' | 'resources';

const COMMANDS = ['tools', 'prompts', 'resources', 'call', 'prompt', 'read', 'proxy'] as const;
const MODES: readonly ClientMode[] = ['auto', 'modern', 'handshake'];

function readJsonArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not JSON: ${(error as Error).message}`);
  }
  if (!isRecord(parsed))
    throw new UsageError(`--args must be a JSON object, like '{"id":"BK-0001"}'.`);
  return parsed;
}

function readPairs(words: string[]): [string, string][] {
  return words.map((word) => {
    const equals = word.indexOf('=');
    if (equals <= 0) {
      throw new UsageError(`Expected an argument as key=value, got ${JSON.stringify(word)}.`);
    }
    return [word.slice(0, equals), word.slice(equals + 1)];
  });
}

function readMode(value: string | undefined): ClientMode {
  if (value === undefined) return 'auto';
  if (!(MODES as readonly string[]).includes(value)) {
    throw new UsageError(
      `--mode must be one of ${MODES.join(', ')}, got ${JSON.stringify(value)}.`,
    );
  }
  return value as ClientMode;
}

function readTimeout(value: string, flag = '--timeout'): number {
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0) {
    throw new UsageError(
      `${flag} must be a positive number of milliseconds, got ${JSON.stringify(value)}.`,
    );
  }
  return ms;
}

/** `--port` / `--host`: serve the proxy over HTTP (127.0.0.1:3000 unless given). */
function readServe(port: string | undefined, host: string | undefined): ProxyServe {
  if (port === undefined && host === undefined) return { kind: 'stdio' };
  const number = port === undefined ? 3000 : Number(port);
  if (!Number.isInteger(number) || number < 0 || number > 65_535) {
    throw new UsageError(`--port must be a port number (0–65535), got ${JSON.stringify(port)}.`);
  }
  return { kind: 'http', host: host ?? '127.0.0.1', port: number };
}

function readProxy(
  target: ServerTarget,
  operands: string[],
  values: ReturnType<typeof parseFlags>['values'],
  flags: CommonFlags,
): CliCommand {
  if (operands.length > 0 || values.args !== undefined || flags.json || flags.noElicitation) {
    throw new UsageError(
      'parley proxy takes the upstream server and --mode, --port, --host, --held-timeout, --server-stderr.',
    );
  }
  const held = values['held-timeout'];
  return {
    kind: 'proxy',
    target,
    serve: readServe(values.port, values.host),
    ...(held === undefined ? {} : { heldCallTimeoutMs: readTimeout(held, '--held-timeout') }),
    ...flags,
  };
}

function stdioTarget(words: string[], from: string): ServerTarget {
  const [command, ...args] = words;
  if (command === undefined || command === '')
    throw new UsageError(`${from} needs a command to start.`);
  return { kind: 'stdio', command: { command, args } };
}

function httpTarget(word: string | undefined, command: string): ServerTarget {
  if (word === undefined) {
    throw new UsageError(
      `parley ${command} needs a server: a URL, --stdio "<command line>" or -- <command>.`,
    );
  }
  if (!/^https?:\/\//i.test(word) || !URL.canParse(word)) {
    throw new UsageError(
      `${JSON.stringify(word)} is not a server URL (http:// or https://); for a local process use --stdio "<command line>" or -- <command>.`,
    );
  }
  return { kind: 'http', url: word };
}

/** Read `argv` (without `node` and the script). Throws `UsageError` for anything wrong. */
export function parseCommandLine(argv: readonly string[]): CliCommand {
  // Everything after a bare `--` is the server's command line, untouched.
  const split = argv.indexOf('--');
  const own = split === -1 ? [...argv] : argv.slice(0, split);
  const serverWords = split === -1 ? undefined : argv.slice(split + 1);

  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(own);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined || command === 'help') return { kind: 'help' };
  if (!(COMMANDS as readonly string[]).includes(command)) {
    throw new UsageError(
      `Unknown command ${JSON.stringify(command)}; the commands are ${COMMANDS.join(', ')}.`,
    );
  }
  const kind = command as (typeof COMMANDS)[number];

  if (values.stdio !== undefined && serverWords !== undefined) {
    throw new UsageError(
      'Give the server once: either --stdio "<command line>" or -- <command>, not both.',
    );
  }
  let target: ServerTarget;
  let operands: string[];
  if (values.stdio !== undefined) {
    target = stdioTarget(splitCommandLine(values.stdio), '--stdio');
    operands = rest;
  } else if (serverWords !== undefined) {
    target = stdioTarget(serverWords, '--');
    operands = rest;
  } else {
    target = httpTarget(rest[0], kind);
    operands = rest.slice(1);
  }
  const flags: CommonFlags = {
    mode: readMode(values.mode),
    ...(values.timeout !== undefined ? { timeoutMs: readTimeout(values.timeout) } : {}),
    serverStderr: values['server-stderr'] === true,
    noElicitation: values['no-elicitation'] === true,
    asAppHost: values['as-app-host'] === true,
    json: values.json === true,
  };
  if (flags.asAppHost && kind !== 'call') {
    throw new UsageError(
      `--as-app-host is for parley call: an App is shown for a tool call, not for parley ${kind}.`,
    );
  }

  if ((values.port !== undefined || values.host !== undefined) && kind !== 'proxy') {
    throw new UsageError(`--port and --host are for parley proxy, not for parley ${kind}.`);
  }
  switch (kind) {
    case 'proxy':
      return readProxy(target, operands, values, flags);
    case 'tools':
    case 'prompts':
    case 'resources':
      if (operands.length > 0)
        throw new UsageError(
          `parley ${kind} takes no more than the server; got ${operands.join(' ')}.`,
        );
      if (values.args !== undefined) throw new UsageError(`parley ${kind} takes no --args.`);
      return { kind, target, ...flags };
    case 'read': {
      const [uri, ...extra] = operands;
      if (uri === undefined)
        throw new UsageError(
          'parley read needs the URI of a resource (parley resources <target> lists them).',
        );
      if (extra.length > 0 || values.args !== undefined)
        throw new UsageError('parley read takes only a URI.');
      return { kind, target, uri, ...flags };
    }
    case 'call':
    case 'prompt': {
      const [name, ...pairs] = operands;
      if (name === undefined) {
        throw new UsageError(
          kind === 'call'
            ? 'parley call needs the name of the tool (parley tools <target> lists them).'
            : 'parley prompt needs the name of the prompt (parley prompts <target> lists them).',
        );
      }
      return {
        kind,
        target,
        name,
        args: { json: readJsonArgs(values.args), pairs: readPairs(pairs) },
        ...flags,
      };
    }
  }
}

function parseFlags(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      args: { type: 'string' },
      mode: { type: 'string' },
      stdio: { type: 'string' },
      timeout: { type: 'string' },
      'server-stderr': { type: 'boolean' },
      'no-elicitation': { type: 'boolean' },
      'as-app-host': { type: 'boolean' },
      json: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      'held-timeout': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
