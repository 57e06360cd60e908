import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, constants, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

import { build } from 'esbuild';

import { repoRoot } from '../../../scripts/apps.mjs';
import { findRedisServer } from '../../../scripts/redisServer.ts';

/**
 * What the load-balancer tests share: a real HAProxy running the deployment guide's
 * configuration (docs/examples/deployment/haproxy.cfg) on this run's ports, in front of app
 * replicas bundled once and run as real processes on 127.0.0.1.
 */

function findHaproxy(): string | undefined {
  const explicit = process.env.HAPROXY;
  if (explicit !== undefined && explicit !== '') return explicit;
  // Debian installs it in /usr/sbin, which a non-root PATH may lack.
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin']) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, 'haproxy'), constants.X_OK);
      return join(dir, 'haproxy');
    } catch {
      // not here
    }
  }
  return undefined;
}

export const haproxyBinary = findHaproxy();
export const redisBinary = findRedisServer();

/**
 * The binaries these tests need and this machine lacks. In CI a missing one is an error (the
 * test must run there); elsewhere the test is skipped with one line saying how to run it.
 */
export function missingBinaries(test: string): string[] {
  const missing = [haproxyBinary ? [] : ['haproxy'], redisBinary ? [] : ['redis-server']].flat();
  if (missing.length > 0) {
    const how = `install it (apt-get install -y ${missing.join(' ')}), then run pnpm vitest run --project integration loadBalancer`;
    if (process.env.CI === 'true') {
      throw new Error(`the ${test} needs ${missing.join(' and ')} in CI; ${how}`);
    }
    console.warn(`${test} skipped: no ${missing.join(' or ')} here; ${how}`);
  }
  return missing;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ConfigOptions {
  /** HAProxy's request log and session ids, for LB_TRACE=1. */
  log?: boolean;
  /** Name the replica that answered in an `x-served-by` response header (booking1, …). */
  servedBy?: boolean;
}

/** The guide's configuration, on this run's ports, plus a probe of how many replicas are up. */
export function configFor(
  front: number,
  probe: number,
  replicas: number[],
  options: ConfigOptions = {},
): string {
  let config = readFileSync(`${repoRoot}docs/examples/${'deployment/haproxy.cfg'}`, 'utf8');
  config = config.replace(
    'bind 127.0.0.1:8080',
    `bind 127.0.0.1:${front}` +
      (options.log
        ? '\n    log stdout format raw local0' +
          '\n    http-request capture req.hdr(mcp-session-id) len 64' +
          '\n    log-format "%t %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %tsc retries=%rc %{+Q}r session=%[capture.req.hdr(0)]"'
        : '') +
      (options.servedBy ? '\n    http-response set-header x-served-by %[srv_name]' : ''),
  );
  replicas.forEach((port, i) => {
    config = config.replace(`127.0.0.1:${3001 + i}`, `127.0.0.1:${port}`);
  });
  return `${config}
frontend probe
    bind 127.0.0.1:${probe}
    http-request return status 200 content-type text/plain lf-string "%[nbsrv(booking)]"
`;
}

/**
 * An app bundled once (its workspace packages from source), so a replica starts in node's
 * time, not tsx's: a restart is then a drain and a start-up, as in production.
 */
export async function bundleApp(entry: string, outdir: string): Promise<string> {
  await build({
    entryPoints: { main: `${repoRoot}${entry}` },
    outdir,
    bundle: true,
    // The SDK stays a lazy chunk, loaded with the first handshake-era session.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@parley/source'],
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  return join(outdir, 'main.js');
}

/**
 * Start one replica of a bundled app; resolves once it says on stderr that it serves (the
 * line `ready`, say `booking: serving`).
 */
export async function startApp(
  main: string,
  env: Record<string, string>,
  ready: string,
  name: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(ready)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}): ${seen}`)));
  });
  return child;
}

/** A running HAProxy, and how to know how many replicas it sees up. */
export interface Balancer {
  process: ChildProcess;
  /** The front door: `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** Until HAProxy's health checks see `count` replicas up. */
  upInHaproxy(count: number): Promise<void>;
}

/**
 * HAProxy with the guide's configuration in front of `replicas` (their ports). With
 * `options.log` (LB_TRACE=1), its request log and server state changes are kept in the
 * temporary directory (parley-lb-haproxy.log, parley-lb-haproxy.err).
 */
export async function startHaproxy(
  dir: string,
  replicas: number[],
  options: ConfigOptions = {},
): Promise<Balancer> {
  const front = await freePort();
  const probe = await freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, configFor(front, probe, replicas, options));
  const log = (name: string) => openSync(join(tmpdir(), name), 'w');
  const child = spawn(haproxyBinary!, ['-db', '-f', config], {
    stdio: options.log
      ? ['ignore', log('parley-lb-haproxy.log'), log('parley-lb-haproxy.err')]
      : 'ignore',
  });
  // Generous: inside the whole suite on two busy cores, start-up and health checks are slow.
  const upInHaproxy = async (count: number): Promise<void> => {
    for (const started = Date.now(); Date.now() - started < 45_000; await sleep(50)) {
      const up = await fetch(`http://127.0.0.1:${probe}/`).then(
        (r) => r.text(),
        () => '',
      );
      if (Number(up) === count) return;
    }
    throw new Error(`HAProxy never saw ${count} replicas up`);
  };
  return { process: child, url: `http://127.0.0.1:${front}/mcp`, upInHaproxy };
}

export function haproxyVersion(binary: string): string {
  const out = spawnSync(binary, ['-v'], { encoding: 'utf8' }).stdout;
  return /version (\S+)/.exec(out)?.[1] ?? 'unknown';
}
