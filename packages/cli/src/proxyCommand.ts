import process from 'node:process';

import type { ClientTarget } from '@parley/client';

import { DEFAULT_TIMEOUT_MS, explainIfConnectionFailure } from './connectionProblem.ts';
import { describeError } from './describeError.ts';
import type { CliCommand, ServerTarget } from './parseArgs.ts';
import { EXIT_FAILED, EXIT_OK } from './usage.ts';

/**
 * `parley proxy <upstream>`: a `ParleyProxy` in front of the upstream, serving a downstream
 * client over stdio (what a host's `command` config starts) or over HTTP (`--port`, `--host`),
 * until that client goes away (stdin ends) or Ctrl-C. Nothing but the protocol goes to stdout;
 * what the proxy says goes to stderr. `@parley/proxy` (and with it the server) is loaded only
 * for this command.
 */

type ProxyCommand = Extract<CliCommand, { kind: 'proxy' }>;

export interface ProxyIo {
  stderr: (text: string) => void;
  signal?: AbortSignal;
  env?: Record<string, string>;
}

function upstreamOf(target: ServerTarget, command: ProxyCommand, io: ProxyIo): ClientTarget {
  if (target.kind === 'http') return target.url;
  return {
    ...target.command,
    ...(io.env !== undefined ? { env: io.env } : {}),
    stderr: command.serverStderr ? 'inherit' : 'ignore',
  };
}

/** Resolves when the downstream client is gone: stdin ended (stdio), or the signal fired. */
function untilDone(command: ProxyCommand, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
    if (command.serve.kind === 'stdio') {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
    }
  });
}

export async function runProxy(command: ProxyCommand, io: ProxyIo): Promise<number> {
  const { ParleyProxy } = await import('@parley/proxy');
  const upstreamLabel =
    command.target.kind === 'http' ? command.target.url : command.target.command.command;
  const proxy = new ParleyProxy({
    upstream: upstreamOf(command.target, command, io),
    upstreamMode: command.mode,
    ...(command.heldCallTimeoutMs === undefined
      ? {}
      : { heldCallTimeoutMs: command.heldCallTimeoutMs }),
    // One process, state that may be lost with it: a restart ends held calls either way.
    server: { requestStateSecurity: { allowEphemeralKeys: true } },
  });
  let running: { url?: string; close(): Promise<void> };
  try {
    running = await proxy.run(
      command.serve.kind === 'http'
        ? { transport: 'http', host: command.serve.host, port: command.serve.port }
        : { transport: 'stdio' },
    );
  } catch (error) {
    // An upstream that cannot be reached is said in the words every parley command uses.
    const why =
      explainIfConnectionFailure(error, command.target, DEFAULT_TIMEOUT_MS) ?? describeError(error);
    io.stderr(`parley proxy: cannot start in front of ${upstreamLabel}: ${why}\n`);
    await proxy.close().catch(() => {});
    return EXIT_FAILED;
  }
  io.stderr(
    `parley proxy: ${upstreamLabel} served ${running.url === undefined ? 'over stdio' : `at ${running.url}`}\n`,
  );
  await untilDone(command, io.signal);
  await running.close();
  return EXIT_OK;
}
