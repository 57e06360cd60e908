import { Client, type ClientOptions, type ClientTarget } from '@parley/client';

import { cwdRoots } from './cwdRoots.ts';
import { describeError } from './describeError.ts';
import { createElicitationHandler } from './elicitationPrompt.ts';
import { nonInteractive } from './nonInteractive.ts';
import { oneAtATime } from './oneAtATime.ts';
import { parseCommandLine, type CliCommand, type ServerTarget } from './parseArgs.ts';
import type { Prompter } from './prompter.ts';
import {
  formatPromptResult,
  formatResourceResult,
  formatToolList,
  formatToolResult,
} from './renderResult.ts';
import { createSamplingHandler } from './samplingPrompt.ts';
import { promptArguments, toolArguments } from './toolArguments.ts';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, USAGE, UsageError } from './usage.ts';

/**
 * The `parley` command, with everything it touches passed in: the prompts, where text goes, the
 * directory it shares as a root. `main.ts` wires the real terminal; tests script the prompts.
 */

export interface CliIo {
  /** The result, and the help text: what a pipe should get. */
  stdout: (text: string) => void;
  /** Usage errors and failures of commands that draw no prompts. */
  stderr: (text: string) => void;
  /** Questions and progress (the CLI draws them on stderr). */
  prompter: Prompter;
  /** Offered to the server as the one root. */
  cwd: string;
  /** False when stdin is not a terminal: questions then fail at once. Default true. */
  interactive?: boolean;
  /** Stops the call in flight (Ctrl-C while waiting for the server). */
  signal?: AbortSignal;
  /**
   * The environment a stdio server is started with, on top of the client's safe default. The
   * CLI passes its own: the person typed the server's command in their shell and expects it to
   * run as it would there.
   */
  env?: Record<string, string>;
}

type ServerCommand = Exclude<CliCommand, { kind: 'help' }>;

function clientTarget(target: ServerTarget, serverStderr: boolean, io: CliIo): ClientTarget {
  if (target.kind === 'http') return target.url;
  return {
    ...target.command,
    ...(io.env !== undefined ? { env: io.env } : {}),
    stderr: serverStderr ? 'inherit' : 'ignore',
  };
}

const LABEL_WIDTH = 48;

/** The server as one short line: a long stdio command line keeps its start and its end. */
export function targetLabel(target: ServerTarget): string {
  const label =
    target.kind === 'http'
      ? target.url
      : [target.command.command, ...(target.command.args ?? [])].join(' ');
  if (label.length <= LABEL_WIDTH) return label;
  const half = (LABEL_WIDTH - 1) / 2;
  return `${label.slice(0, Math.ceil(half))}…${label.slice(-Math.floor(half))}`;
}

function createClient(command: ServerCommand, io: CliIo, prompter: Prompter): Client {
  // Questions that arrive together (one modern round) are asked one after another.
  const queue = oneAtATime();
  const options: ClientOptions = {
    mode: command.mode,
    ...(command.timeoutMs !== undefined ? { timeoutMs: command.timeoutMs } : {}),
    elicitationHandler: createElicitationHandler(prompter, queue),
    samplingHandler: createSamplingHandler(prompter, queue),
    roots: cwdRoots(io.cwd, prompter, queue),
  };
  return new Client(clientTarget(command.target, command.serverStderr, io), options);
}

/** Connecting is not a call, so it takes no signal: Ctrl-C stops the wait here instead. */
async function connect(client: Client, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return client.connect();
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([client.connect(), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/**
 * Close the client. After Ctrl-C it is not waited for: closing waits for a connection attempt
 * still under way, and a person who pressed Ctrl-C wants the prompt back now.
 */
async function disconnect(client: Client, signal: AbortSignal | undefined): Promise<void> {
  const closing = client.close().catch(() => undefined);
  if (signal?.aborted !== true) await closing;
}

function usageFailure(io: CliIo, error: UsageError): number {
  io.stderr(`parley: ${error.message}\nRun 'parley --help' for usage.\n`);
  return EXIT_USAGE;
}

async function listTools(
  command: Extract<ServerCommand, { kind: 'tools' }>,
  io: CliIo,
  prompter: Prompter,
): Promise<number> {
  const client = createClient(command, io, prompter);
  try {
    await connect(client, io.signal);
    io.stdout(`${formatToolList(await client.listTools())}\n`);
    return EXIT_OK;
  } catch (error) {
    io.stderr(`parley: ${describeError(error)}\n`);
    return EXIT_FAILED;
  } finally {
    await disconnect(client, io.signal);
  }
}

/** What the command asks the server for, once connected: the text to print, and whether it failed. */
async function perform(
  command: Exclude<ServerCommand, { kind: 'tools' }>,
  client: Client,
  signal: AbortSignal | undefined,
): Promise<{ text: string; failed: boolean }> {
  const callOptions = signal !== undefined ? { signal } : {};
  switch (command.kind) {
    case 'call': {
      const tools = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === command.name);
      if (tool === undefined) {
        const names = tools.map((candidate) => candidate.name).join(', ');
        throw new UsageError(
          `The server has no tool ${JSON.stringify(command.name)}; it has: ${names || '(none)'}.`,
        );
      }
      const result = await client.callTool(
        command.name,
        toolArguments(command.args, tool.inputSchema),
        callOptions,
      );
      return { text: formatToolResult(result), failed: result.isError };
    }
    case 'prompt':
      return {
        text: formatPromptResult(
          await client.getPrompt(command.name, promptArguments(command.args), callOptions),
        ),
        failed: false,
      };
    case 'read':
      return {
        text: formatResourceResult(await client.readResource(command.uri, callOptions)),
        failed: false,
      };
  }
}

async function converse(
  command: Exclude<ServerCommand, { kind: 'tools' }>,
  io: CliIo,
  prompter: Prompter,
): Promise<number> {
  const what = command.kind === 'read' ? command.uri : command.name;
  prompter.intro(`parley ${command.kind} ${what}`);
  const client = createClient(command, io, prompter);
  try {
    await connect(client, io.signal);
    prompter.info(
      `Connected to ${targetLabel(command.target)}\n${client.era} era, MCP ${client.protocolVersion}`,
    );
    const { text, failed } = await perform(command, client, io.signal);
    if (failed) {
      prompter.error(`${what} reported an error:`);
      prompter.outro('Failed');
    } else {
      prompter.outro('Result');
    }
    io.stdout(`${text}\n`);
    return failed ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    prompter.error(describeError(error));
    prompter.outro('Failed');
    return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
  } finally {
    await disconnect(client, io.signal);
  }
}

/** Run one `parley` command line; resolves to the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, error);
    throw error;
  }
  if (command.kind === 'help') {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const prompter = io.interactive === false ? nonInteractive(io.prompter) : io.prompter;
  if (command.kind === 'tools') return listTools(command, io, prompter);
  return converse(command, io, prompter);
}
