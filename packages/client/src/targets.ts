import { checkOptionKeys, isRecord, optionKeys } from '@parley/core';

import type { ClientTarget, InProcessServer, StdioServerCommand } from './types.ts';

/** A target, checked and sorted by how it is reached; `label` names it in error messages. */
export type ResolvedTarget =
  | { kind: 'in-process'; server: InProcessServer; label: string }
  | { kind: 'http'; url: URL; label: string }
  | { kind: 'stdio'; command: StdioServerCommand; label: string };

const STDERR_MODES: ReadonlySet<unknown> = new Set(['inherit', 'ignore']);

function isInProcessServer(value: unknown): value is InProcessServer {
  return (
    isRecord(value) &&
    typeof (value as { connect?: unknown }).connect === 'function' &&
    typeof (value as { fetch?: unknown }).fetch === 'function'
  );
}

function httpTarget(url: URL): ResolvedTarget {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`Client: a server URL must be http: or https:, got ${url.protocol}`);
  }
  return { kind: 'http', url, label: url.href };
}

const STDIO_COMMAND = optionKeys<StdioServerCommand>()(['command', 'args', 'env', 'cwd', 'stderr']);

function stdioTarget(spec: Record<string, unknown>): ResolvedTarget {
  checkOptionKeys('Client', 'target', spec, STDIO_COMMAND);
  const { command, args, env, cwd, stderr } = spec;
  if (typeof command !== 'string' || command.length === 0) {
    throw new TypeError('Client: a stdio target needs command, a non-empty string.');
  }
  if (args !== undefined && !(Array.isArray(args) && args.every((a) => typeof a === 'string'))) {
    throw new TypeError('Client: args of a stdio target must be an array of strings.');
  }
  if (
    env !== undefined &&
    !(isRecord(env) && Object.values(env).every((v) => typeof v === 'string'))
  ) {
    throw new TypeError('Client: env of a stdio target must map names to strings.');
  }
  if (cwd !== undefined && typeof cwd !== 'string') {
    throw new TypeError('Client: cwd of a stdio target must be a string.');
  }
  if (stderr !== undefined && !STDERR_MODES.has(stderr)) {
    throw new TypeError("Client: stderr of a stdio target must be 'inherit' or 'ignore'.");
  }
  const checked = spec as unknown as StdioServerCommand;
  return {
    kind: 'stdio',
    command: checked,
    label: [checked.command, ...(checked.args ?? [])].join(' '),
  };
}

/**
 * Sort a target: an object with `connect` and `fetch` is a server in this process (a
 * `ParleyServer`, duck-typed so this package never imports the server), a string or `URL` is an
 * HTTP endpoint, an object with `command` is a process to start.
 */
export function resolveTarget(target: ClientTarget): ResolvedTarget {
  if (isInProcessServer(target)) {
    return { kind: 'in-process', server: target, label: 'the in-process server' };
  }
  if (target instanceof URL) return httpTarget(target);
  if (typeof target === 'string') {
    if (!URL.canParse(target)) {
      throw new TypeError(`Client: ${JSON.stringify(target)} is not a URL.`);
    }
    return httpTarget(new URL(target));
  }
  if (isRecord(target) && 'command' in target) return stdioTarget(target);
  throw new TypeError(
    'Client: the target must be a server instance (with connect and fetch), an http(s) URL, or { command, args, env, cwd }.',
  );
}
