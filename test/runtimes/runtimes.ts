/**
 * The runtimes the fetch handler claims, each serving the deployment guide's trip planner
 * (docs/examples/deployment/edge/) over its own HTTP server on 127.0.0.1, with the guide's
 * commands and configuration: Bun and Deno run the TypeScript as it is; workerd (through
 * miniflare, on the Node 22 binary `@parley/node22` finds) runs the Worker bundled once per run,
 * with the guide's wrangler.toml (no `nodejs_compat`). The binaries come from npm packages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { node22Path } from '@parley/node22';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const bin = (name: string) => join(here, 'node_modules', '.bin', name);
const fixture = (name: string) => join(here, 'fixtures', name);
/** A file of docs/examples, named as the docs name it (the snippets test checks they are run). */
const example = (path: string) => join(here, '..', '..', 'docs', 'examples', path);

/** The guide's wrangler.toml, as far as the test needs it. */
export function wranglerConfig(): { main: string; compatibilityDate: string; flags: string[] } {
  const toml = readFileSync(example('deployment/edge/wrangler.toml'), 'utf8');
  const value = (key: string) => new RegExp(`^${key} = (.+)$`, 'm').exec(toml)?.[1];
  const flags = value('compatibility_flags');
  return {
    main: JSON.parse(value('main') ?? '""') as string,
    compatibilityDate: JSON.parse(value('compatibility_date') ?? '""') as string,
    flags: flags === undefined ? [] : (JSON.parse(flags) as string[]),
  };
}

export interface RunningRuntime {
  /** As the runtime reports itself, e.g. `bun 1.4.4`. */
  version: string;
  /** What else its start-up line said (miniflare's version, for workerd). */
  detail: string;
  url: string;
  /** Milliseconds from spawn to listening. */
  startMs: number;
  stop(): Promise<void>;
}

/** Bundle the Worker the way wrangler would: esbuild, the `workerd` export conditions. */
export async function bundleWorker(): Promise<{
  /** The entry wrangler.toml names (`main`): the one bundled. */
  main: string;
  path: string;
  bytes: number;
  /** The `node:*` modules the bundle imports: none, or workerd needs `nodejs_compat`. */
  nodeImports: string[];
  dispose(): void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-worker-'));
  const result = await build({
    entryPoints: [example('deployment/edge/worker.ts')],
    outfile: join(dir, 'worker.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['@parley/source', 'workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    // Left for workerd to refuse, as it would on Cloudflare, rather than failing the bundle.
    external: ['node:*'],
    metafile: true,
    logLevel: 'silent',
  });
  const outputs = Object.values(result.metafile.outputs);
  return {
    main: wranglerConfig().main,
    path: join(dir, 'worker.mjs'),
    bytes: outputs.reduce((sum, out) => sum + out.bytes, 0),
    nodeImports: outputs.flatMap((out) =>
      out.imports.filter((i) => i.path.startsWith('node:')).map((i) => i.path),
    ),
    dispose: () => rmSync(dir, { recursive: true }),
  };
}

/** How each runtime starts the trip server (the commands the deployment guide shows). */
export function commandOf(
  runtime: 'bun' | 'deno' | 'workerd',
  workerBundle?: string,
): [string, string[]] {
  switch (runtime) {
    case 'bun':
      return [bin('bun'), ['--conditions=@parley/source', example('deployment/edge/bun.ts')]];
    case 'deno':
      return [
        bin('deno'),
        [
          'run',
          '--conditions=@parley/source',
          '--allow-net=127.0.0.1',
          '--allow-env=REQUEST_STATE_KEY,PORT',
          '--allow-read',
          example('deployment/edge/deno.ts'),
        ],
      ];
    case 'workerd': {
      // miniflare needs Node 22, not the Node running the tests.
      const { compatibilityDate, flags } = wranglerConfig();
      return [
        node22Path(),
        [fixture('miniflare.mjs'), workerBundle!, compatibilityDate, flags.join(',')],
      ];
    }
  }
}

/**
 * Signal a runtime and everything it started. The `bun` and `deno` bins are shell scripts that
 * run the binary as their child, so signalling the script alone would leave the runtime running
 * after the tests; each runtime is therefore started as the leader of its own process group.
 */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // The group is gone already.
  }
}

/** Start one runtime and wait for its `READY <port> <version>` line. */
export async function startRuntime(
  [command, args]: [string, string[]],
  keys: string[],
  timeoutMs = 60_000,
): Promise<RunningRuntime> {
  const started = Date.now();
  const child: ChildProcess = spawn(command, args, {
    cwd: here,
    env: { ...process.env, REQUEST_STATE_KEY: keys.join(','), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const ready = await new Promise<{ port: number; version: string; detail: string }>(
    (resolve, reject) => {
      const timer = setTimeout(() => {
        killGroup(child, 'SIGKILL');
        reject(new Error(`${command} did not start within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /^READY (\d+) (.+)$/m.exec(output);
        if (match !== null) {
          clearTimeout(timer);
          const [version = '', detail = ''] = match[2]!.split(' | ');
          resolve({ port: Number(match[1]), version: version.trim(), detail: detail.trim() });
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${command} exited with ${String(code)}:\n${output}`));
      });
    },
  );
  return {
    ...ready,
    url: `http://127.0.0.1:${ready.port}/mcp`,
    startMs: Date.now() - started,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      killGroup(child, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The sealing fixture's command on Bun or Deno. */
export function sealingCommandOf(runtime: 'bun' | 'deno'): [string, string[]] {
  return runtime === 'bun'
    ? [bin('bun'), ['--conditions=@parley/source', fixture('sealing.ts')]]
    : [
        bin('deno'),
        [
          'run',
          '--conditions=@parley/source',
          '--allow-env',
          '--allow-read',
          fixture('sealing.ts'),
        ],
      ];
}

/** Run a command to its end and resolve with what it printed, or reject with why it failed. */
export async function runToEnd(
  [command, args]: [string, string[]],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<string> {
  const child = spawn(command, args, {
    cwd: here,
    env: { ...process.env, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${command} exited with ${String(code)}:\n${stdout}${stderr}`);
  return stdout;
}
