import { Client, type ClientOptions, type ClientTarget, type Tool } from '@parley/client';

import { askMissingArguments, missingArguments, promptArgumentSchema } from './argumentPrompt.ts';
import {
  ConnectionProblem,
  DEFAULT_TIMEOUT_MS,
  explainConnectionFailure,
} from './connectionProblem.ts';
import { cwdRoots } from './cwdRoots.ts';
import { describeError } from './describeError.ts';
import { followRoutes } from './callRoutes.ts';
import { createElicitationHandler, createQuestionAsker } from './elicitationPrompt.ts';
import { nonInteractive } from './nonInteractive.ts';
import { oneAtATime } from './oneAtATime.ts';
import {
  parseCommandLine,
  type CliCommand,
  type ListKind,
  type ServerTarget,
} from './parseArgs.ts';
import { DECLINED, isDismissed, type Prompter } from './prompter.ts';
import { runProxy } from './proxyCommand.ts';
import {
  formatPromptList,
  formatPromptResult,
  formatResourceList,
  formatResourceResult,
  formatToolList,
  formatToolResult,
} from './renderResult.ts';
import { MCP_APPS_EXTENSION } from './routes.ts';
import { createSamplingHandler } from './samplingPrompt.ts';
import { reportTask } from './taskStatus.ts';
import { promptArguments, refuseUndeclared, toolArguments } from './toolArguments.ts';
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

type ServerCommand = Exclude<CliCommand, { kind: 'help' | 'proxy' }>;
type ListCommand = Extract<ServerCommand, { kind: ListKind }>;
type ConverseCommand = Exclude<ServerCommand, ListCommand>;

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

/** What the client declares and answers within a call. */
function clientOptions(
  command: ServerCommand,
  io: CliIo,
  prompter: Prompter,
  queue: ReturnType<typeof oneAtATime>,
): ClientOptions {
  const base: ClientOptions = {
    mode: command.mode,
    ...(command.timeoutMs !== undefined ? { timeoutMs: command.timeoutMs } : {}),
  };
  // A host that draws MCP Apps and cannot ask: the UI extension, and nothing else.
  if (command.asAppHost) return { ...base, tasks: false, extensions: MCP_APPS_EXTENSION };
  return {
    ...base,
    ...(command.noElicitation
      ? {}
      : { elicitationHandler: createElicitationHandler(prompter, queue) }),
    samplingHandler: createSamplingHandler(prompter, queue),
    roots: cwdRoots(io.cwd, prompter, queue),
  };
}

function createClient(
  command: ServerCommand,
  io: CliIo,
  prompter: Prompter,
  queue: ReturnType<typeof oneAtATime> = oneAtATime(),
): Client {
  return new Client(
    clientTarget(command.target, command.serverStderr, io),
    clientOptions(command, io, prompter, queue),
  );
}

/**
 * Connect, with a failure said as what to check. Connecting is not a call, so it takes no
 * signal: Ctrl-C stops the wait here instead.
 */
async function connect(
  client: Client,
  command: ServerCommand,
  signal: AbortSignal | undefined,
): Promise<void> {
  signal?.throwIfAborted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([client.connect(), aborted]);
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ConnectionProblem(
      explainConnectionFailure(error, command.target, command.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      { cause: error },
    );
  } finally {
    signal?.removeEventListener('abort', onAbort!);
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

/** An error as one line: a connection failure says only what to check, the rest with causes. */
function explain(error: unknown): string {
  return error instanceof ConnectionProblem ? error.message : describeError(error);
}

function usageFailure(io: CliIo, error: UsageError): number {
  io.stderr(`parley: ${error.message}\nRun 'parley --help' for usage.\n`);
  return EXIT_USAGE;
}

/** What stdout gets: the text for a person, or with `--json` one JSON document. */
interface Output {
  text: string;
  /** The result as the client returned it (a list: `{ tools }`, as MCP's list result names it). */
  value: unknown;
}

function printed(output: Output, json: boolean): string {
  return `${json ? JSON.stringify(output.value, null, 2) : output.text}\n`;
}

/** `parley tools`, `parley prompts`, `parley resources`: what the server offers, on stdout. */
async function list(command: ListCommand, client: Client): Promise<Output> {
  switch (command.kind) {
    case 'tools': {
      const tools = await client.listTools();
      return { text: formatToolList(tools), value: { tools } };
    }
    case 'prompts': {
      const prompts = await client.listPrompts();
      return { text: formatPromptList(prompts), value: { prompts } };
    }
    case 'resources': {
      const [resources, resourceTemplates] = await Promise.all([
        client.listResources(),
        client.listResourceTemplates(),
      ]);
      return {
        text: formatResourceList(resources, resourceTemplates),
        value: { resources, resourceTemplates },
      };
    }
  }
}

async function runList(command: ListCommand, io: CliIo, prompter: Prompter): Promise<number> {
  const client = createClient(command, io, prompter);
  try {
    await connect(client, command, io.signal);
    io.stdout(printed(await list(command, client), command.json));
    return EXIT_OK;
  } catch (error) {
    io.stderr(`parley: ${explain(error)}\n`);
    return EXIT_FAILED;
  } finally {
    await disconnect(client, io.signal);
  }
}

/** The person left the questions about missing arguments: nothing is called. */
class NotCalled extends Error {
  constructor(what: string, how: 'declined' | 'cancelled') {
    super(
      `Not called: ${what} needs its arguments, and you ${how === 'declined' ? 'declined to give them' : 'cancelled'}.`,
    );
    this.name = 'NotCalled';
  }
}

/**
 * The arguments of the call: those on the command line, plus the required ones it left out,
 * asked for in the terminal (or, without one, named in a usage error).
 */
async function completeArguments(
  what: string,
  inputSchema: unknown,
  args: Record<string, unknown>,
  interactive: boolean,
  prompter: Prompter,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const missing = missingArguments(inputSchema, args);
  if (missing.length === 0) return args;
  if (!interactive) {
    throw new UsageError(
      `${what} needs ${missing.join(', ')}; give ${missing.length === 1 ? 'it' : 'them'} as ${missing.map((name) => `${name}=<value>`).join(' ')}.`,
    );
  }
  const heading = `${what} needs ${missing.length === 1 ? 'an argument' : `${missing.length} arguments`}`;
  const completed = await askMissingArguments(prompter, heading, inputSchema, args, signal);
  if (isDismissed(completed))
    throw new NotCalled(what, completed === DECLINED ? 'declined' : 'cancelled');
  return completed;
}

async function findTool(client: Client, name: string): Promise<Tool> {
  const tools = await client.listTools();
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) {
    const names = tools.map((candidate) => candidate.name).join(', ');
    throw new UsageError(
      `The server has no tool ${JSON.stringify(name)}; it has: ${names || '(none)'}.`,
    );
  }
  return tool;
}

/** The prompt's declared arguments, or none when the server does not list prompts. */
async function promptInputSchema(client: Client, name: string): Promise<unknown> {
  let prompts;
  try {
    prompts = await client.listPrompts();
  } catch {
    return undefined; // Let getPrompt say what is wrong.
  }
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (prompt === undefined) {
    const names = prompts.map((candidate) => candidate.name).join(', ');
    throw new UsageError(
      `The server has no prompt ${JSON.stringify(name)}; it has: ${names || '(none)'}.`,
    );
  }
  return promptArgumentSchema(prompt.arguments ?? []);
}

/** What the command asks the server for, once connected: what to print, and whether it failed. */
async function perform(
  command: ConverseCommand,
  client: Client,
  io: CliIo,
  prompter: Prompter,
  queue: ReturnType<typeof oneAtATime>,
): Promise<Output & { failed: boolean }> {
  const { signal } = io;
  const interactive = io.interactive !== false;
  const callOptions = signal !== undefined ? { signal } : {};
  switch (command.kind) {
    case 'call': {
      const tool = await findTool(client, command.name);
      const given = toolArguments(command.args, tool.inputSchema);
      refuseUndeclared(command.name, given, tool.inputSchema);
      const args = await completeArguments(
        command.name,
        tool.inputSchema,
        given,
        interactive,
        prompter,
        signal,
      );
      const options = { ...callOptions, onTask: reportTask(prompter, command.name) };
      const result = await followRoutes(await client.callTool(command.name, args, options), {
        client,
        prompter,
        ask: createQuestionAsker(prompter, queue),
        tool,
        args,
        interactive,
        options,
      });
      return { text: formatToolResult(result), value: result, failed: result.isError };
    }
    case 'prompt': {
      const args = await completeArguments(
        command.name,
        await promptInputSchema(client, command.name),
        promptArguments(command.args),
        interactive,
        prompter,
        signal,
      );
      const result = await client.getPrompt(
        command.name,
        args as Record<string, string>,
        callOptions,
      );
      return { text: formatPromptResult(result), value: result, failed: false };
    }
    case 'read': {
      const result = await client.readResource(command.uri, callOptions);
      return { text: formatResourceResult(result), value: result, failed: false };
    }
  }
}

async function converse(command: ConverseCommand, io: CliIo, prompter: Prompter): Promise<number> {
  const what = command.kind === 'read' ? command.uri : command.name;
  prompter.intro(`parley ${command.kind} ${what}`);
  // Questions that arrive together (one modern round) are asked one after another.
  const queue = oneAtATime();
  const client = createClient(command, io, prompter, queue);
  try {
    await connect(client, command, io.signal);
    prompter.info(
      `Connected to ${targetLabel(command.target)}\n${client.era} era, MCP ${client.protocolVersion}`,
    );
    const { failed, ...output } = await perform(command, client, io, prompter, queue);
    if (failed) {
      prompter.error(`${what} reported an error:`);
      prompter.outro('Failed');
    } else {
      prompter.outro('Result');
    }
    io.stdout(printed(output, command.json));
    return failed ? EXIT_FAILED : EXIT_OK;
  } catch (error) {
    if (error instanceof NotCalled) {
      prompter.warn(error.message);
      prompter.outro('Not called');
      return EXIT_USAGE;
    }
    prompter.error(explain(error));
    prompter.outro('Failed');
    return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
  } finally {
    await disconnect(client, io.signal);
  }
}

function isListCommand(command: ServerCommand): command is ListCommand {
  return command.kind === 'tools' || command.kind === 'prompts' || command.kind === 'resources';
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
  if (command.kind === 'proxy') return runProxy(command, io);
  const prompter = io.interactive === false ? nonInteractive(io.prompter) : io.prompter;
  return isListCommand(command) ? runList(command, io, prompter) : converse(command, io, prompter);
}
