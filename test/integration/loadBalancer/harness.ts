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

/** A binary on PATH (or in /usr/sbin, where Debian installs servers, which a non-root PATH may lack). */
function findBinary(name: string, variable: string): string | undefined {
  const explicit = process.env[variable];
  if (explicit !== undefined && explicit !== '') return explicit;
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin']) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

export const haproxyBinary = findBinary('haproxy', 'HAPROXY');
export const nginxBinary = findBinary('nginx', 'NGINX');
export const caddyBinary = findBinary('caddy', 'CADDY');
export const redisBinary = findRedisServer();

/** The servers a load-balancer test may need. */
const BINARIES = {
  haproxy: () => haproxyBinary,
  'redis-server': () => redisBinary,
  nginx: () => nginxBinary,
  caddy: () => caddyBinary,
};
/** Debian's package of each. */
const PACKAGES: Record<keyof typeof BINARIES, string> = {
  haproxy: 'haproxy',
  'redis-server': 'redis-server',
  nginx: 'nginx-light',
  caddy: 'caddy',
};

/**
 * The binaries a test needs and this machine lacks. In CI a missing one is an error (the test
 * must run there); elsewhere the test is skipped with one line saying how to run it.
 */
export function missingBinaries(
  test: string,
  needs: readonly (keyof typeof BINARIES)[] = ['haproxy', 'redis-server'],
): string[] {
  const missing = needs.filter((name) => BINARIES[name]() === undefined);
  if (missing.length > 0) {
    const how = `install it (apt-get install -y ${missing.map((name) => PACKAGES[name]).join(' ')}), then run pnpm vitest run --project integration loadBalancer`;
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

/**
 * Close a replica gracefully (SIGTERM, its drain) and wait until it has exited; resolves with its
 * exit code and how long the close took.
 */
export async function drainReplica(
  child: ChildProcess,
): Promise<{ code: number | null; ms: number }> {
  child.removeAllListeners('exit'); // (the start-up's)
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const started = Date.now();
  child.kill('SIGTERM');
  const code = await exited;
  return { code, ms: Date.now() - started };
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

/** A balancer other than HAProxy: its process and its front door. */
export interface Proxy {
  process: ChildProcess;
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
}

/** The guide's file (under docs/examples/), its example ports (8080 in front, 3001–3003 behind) replaced with this run's. */
function guideConfig(file: string, front: number, replicas: number[]): string {
  let config = readFileSync(`${repoRoot}docs/examples/${file}`, 'utf8');
  config = config.replace('127.0.0.1:8080', `127.0.0.1:${front}`);
  replicas.forEach((port, i) => {
    config = config.replaceAll(`127.0.0.1:${3001 + i}`, `127.0.0.1:${port}`);
  });
  return config;
}

/** Until `url` answers at all (any status): the balancer listens. */
async function listening(url: string, name: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 20_000; await sleep(50)) {
    if (
      await fetch(url, { method: 'OPTIONS' }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error(`${name} never listened on ${url}`);
}

/**
 * nginx with the guide's configuration (docs/examples/deployment/nginx.conf) in front of
 * `replicas`, its pid and temporary files in `dir`, in the foreground.
 */
export async function startNginx(
  dir: string,
  replicas: number[],
  edit: (config: string) => string = (config) => config,
): Promise<Proxy> {
  const front = await freePort();
  const config = edit(guideConfig('deployment/nginx.conf', front, replicas))
    .replace('pid /run/nginx-parley.pid;', `pid ${join(dir, 'nginx.pid')};`)
    .replace(
      'http {',
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
        .map((kind) => `    ${kind}_temp_path ${join(dir, `nginx-${kind}`)};`)
        .reduce(
          (text, line) => `${text}
${line}`,
          'http {',
        ),
    );
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config);
  // nginx logs each upstream it retries (a replica restarting) to stderr: shown only when
  // tracing, or when it never starts listening.
  const child = spawn(nginxBinary!, ['-c', file, '-p', dir, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (process.env.LB_TRACE === '1') process.stderr.write(chunk);
    log = (log + chunk.toString()).slice(-4_000);
  });
  const url = `http://127.0.0.1:${front}/mcp`;
  await listening(url, 'nginx').catch((error: Error) => {
    throw new Error(`${error.message}; nginx said:\n${log}`);
  });
  return { process: child, url };
}

/** Caddy with the guide's configuration (docs/examples/deployment/Caddyfile) in front of `replicas`. */
export async function startCaddy(dir: string, replicas: number[]): Promise<Proxy> {
  const front = await freePort();
  const file = join(dir, 'Caddyfile');
  writeFileSync(file, guideConfig('deployment/Caddyfile', front, replicas));
  const child = spawn(caddyBinary!, ['run', '--config', file, '--adapter', 'caddyfile'], {
    // Caddy logs every start-up step as JSON on stderr: kept only when tracing.
    stdio: ['ignore', 'ignore', process.env.LB_TRACE === '1' ? 'inherit' : 'ignore'],
    env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
  });
  const url = `http://127.0.0.1:${front}/mcp`;
  await listening(url, 'Caddy');
  return { process: child, url };
}

/**
 * Stops a balancer and waits until it has gone. SIGTERM first: a SIGKILLed nginx master leaves
 * its worker processes behind, still holding the port. SIGKILL only if it lingers.
 */
export async function stopProcess(child: ChildProcess | undefined, graceMs = 5_000): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** What a binary says its version is (first line of `-v` / `version`). */
export function versionOf(binary: string, args: string[]): string {
  const run = spawnSync(binary, args, { encoding: 'utf8' });
  return `${run.stdout}${run.stderr}`.split('\n')[0]?.trim() ?? 'unknown';
}
