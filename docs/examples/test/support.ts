/**
 * What the example tests share: the quoted output files the pages include, console capture, and
 * starting an example's entry file as a real child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';

import { vi } from 'vitest';

import { findRedisServer } from '../../../scripts/redisServer.ts';

export const examplesRoot = fileURLToPath(new URL('..', import.meta.url));
export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Both protocol eras, for `describe.each`. */
export const eras = ['modern', 'handshake'] as const;

/** The text of an output file a page quotes (path relative to `docs/examples/`), without the final newline. */
export function quoted(path: string): string {
  return readFileSync(`${examplesRoot}/${path}`, 'utf8').replace(/\n$/, '');
}

/** Everything `console.log` (or `console.error`) printed while `run` ran, formatted as the console formats it. */
export async function consoleOutput(
  run: () => Promise<unknown>,
  stream: 'log' | 'error' = 'log',
): Promise<string> {
  const lines: string[] = [];
  const spy = vi
    .spyOn(console, stream)
    .mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.join('\n');
}

/** The text blocks of a tool result, joined. */
export function textOf(result: { content: readonly unknown[] }): string {
  return result.content
    .map((block) =>
      (block as { type?: string }).type === 'text'
        ? (block as { text: string }).text
        : '',
    )
    .join('');
}

/** Node arguments that run an example's TypeScript file from source, as `npx tsx` would. */
export function nodeArgs(file: string, ...extra: string[]): string[] {
  return [
    '--conditions=@parley/source',
    '--import',
    'tsx',
    `${examplesRoot}/${file}`,
    ...extra,
  ];
}

/**
 * Start an example file as a child process and wait until its stderr prints a line matching
 * `ready`; resolves with the match and the process (kill it when done).
 */
export function startExample(
  file: string,
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<{
  match: RegExpMatchArray;
  child: ChildProcess;
  stop(): Promise<void>;
}> {
  const child = spawn(process.execPath, nodeArgs(file), {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null)
        return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => {
      void stop();
      reject(
        new Error(`${file} did not print ${ready} within 20 s:\n${stderr}`),
      );
    }, 20_000);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = stderr.match(ready);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ match, child, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `${file} exited (${code}) before it was ready:\n${stderr}`,
        ),
      );
    });
  });
}

/** Everything `console.warn` printed while `run` ran (the server's default warning reporter). */
export async function consoleWarnings(
  run: () => Promise<unknown>,
): Promise<string[]> {
  const lines: string[] = [];
  const spy = vi
    .spyOn(console, 'warn')
    .mockImplementation((...args: unknown[]) => {
      lines.push(format(...args));
    });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

/** A JSON file a page quotes, parsed (formatting is Prettier's business, content is ours). */
export function quotedJson(path: string): unknown {
  return JSON.parse(quoted(path));
}

/**
 * The `redis-server` the Redis examples run against, or `undefined` (their tests then skip). In CI
 * there must be one (.ci/run installs it): a missing one is an error there, not a skip.
 */
export function redisServerBinary(): string | undefined {
  const binary = findRedisServer();
  if (binary === undefined && process.env.CI === 'true') {
    throw new Error(
      'redis-server is required in CI (apt-get install -y redis-server)',
    );
  }
  return binary;
}
