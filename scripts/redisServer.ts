/**
 * A real `redis-server` for the tests (of @parley/redis and of the docs' examples): started on 127.0.0.1 on a free port, in a directory of
 * its own, stopped (and restartable on the same port and data) by the test that started it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The `redis-server` to run: `REDIS_SERVER`, or the first on `PATH` (Debian's: /usr/bin). */
export function findRedisServer(): string | undefined {
  const explicit = process.env.REDIS_SERVER;
  if (explicit !== undefined && explicit !== '') return explicit;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RedisServer {
  url: string;
  port: number;
  /**
   * Stop it: SIGTERM by default, or `'SIGKILL'` (a crash). With `appendfsync always`, nothing
   * acknowledged is lost either way.
   */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Start it again on the same port with the same data. */
  start(): Promise<void>;
  /** Stop it and remove its data. */
  dispose(): Promise<void>;
}

export async function startRedisServer(binary: string): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const proc = spawn(
      binary,
      [
        '--bind',
        '127.0.0.1',
        '--port',
        String(port),
        '--dir',
        dir,
        '--save',
        '',
        // Durable: what Redis acknowledged survives a restart, as a production setup must be.
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start:\n${output}`)),
        10_000,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', onData);
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${String(code)}:\n${output}`));
      });
    });
    proc.stdout!.removeAllListeners('data');
    proc.stderr!.removeAllListeners('data');
    proc.stdout!.resume();
    proc.stderr!.resume();
    child = proc;
  }

  async function stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const proc = child;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill(signal);
    await exited;
  }

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    async dispose() {
      await stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
