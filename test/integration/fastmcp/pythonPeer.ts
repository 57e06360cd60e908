/**
 * FastMCP (Python, PyPI `fastmcp`, pinned in python/requirements.txt and python/constraints.txt)
 * in a virtual environment outside the repository, under the user's cache directory, keyed by
 * the Python version and a hash of those two files, so it is installed once per machine and
 * reused. Several runs (or several test files of one run) may want it at once: one of them
 * installs into a private directory under a lock and renames it into place when complete; the
 * others wait for it.
 *
 * Without Python 3.10+ and its `venv` module the suite is skipped with one line naming what to
 * install (CI, where .ci/run installs them, requires them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const pythonDir = fileURLToPath(new URL('./python/', import.meta.url));
const requirements = join(pythonDir, 'requirements.txt');
const constraints = join(pythonDir, 'constraints.txt');

const HOW =
  'install Python 3.10+ with its venv module (Debian/Ubuntu: apt-get install -y python3-venv; or set PARLEY_PYTHON=/path/to/python3), then run pnpm vitest run test/integration/fastmcp';

export interface BasePython {
  command: string;
  version: string;
}

/**
 * The first Python 3.10+ that can make a virtual environment, or undefined. The suite's two files
 * skip together; only the one that is not `quiet` says so, so a run prints one line.
 */
export function findPython(suite: string, { quiet = false } = {}): BasePython | undefined {
  const candidates = [
    process.env.PARLEY_PYTHON,
    'python3',
    'python3.13',
    'python3.12',
    'python3.11',
    'python3.10',
    'python',
  ];
  const probe =
    'import sys, venv, ensurepip; v = sys.version_info; print(f"{v[0]}.{v[1]}") if v >= (3, 10) else sys.exit(3)';
  for (const command of candidates) {
    if (command === undefined || command === '') continue;
    const run = spawnSync(command, ['-c', probe], { encoding: 'utf8', timeout: 20_000 });
    if (run.status === 0) return { command, version: run.stdout.trim() };
  }
  if (process.env.CI === 'true') throw new Error(`${suite} needs Python in CI; ${HOW}`);
  if (!quiet) console.warn(`${suite}: no Python 3.10+ with venv here, so it is skipped; ${HOW}`);
  return undefined;
}

function cacheRoot(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'parley', 'python-peers');
}

/** The venv's directory: Python version plus a hash of the pinned files. */
export function venvDirFor(base: BasePython): string {
  const hash = createHash('sha256')
    .update(readFileSync(requirements))
    .update(readFileSync(constraints))
    .digest('hex')
    .slice(0, 12);
  return join(cacheRoot(), `fastmcp-4.0.10-py${base.version}-${hash}`);
}

function pythonIn(venv: string): string {
  return process.platform === 'win32'
    ? join(venv, 'Scripts', 'python.exe')
    : join(venv, 'bin', 'python');
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // An index pip cannot reach costs minutes of retries per package, where a mirror that
    // answers needs none; a machine that wants retries says so with PIP_RETRIES.
    const env = { ...process.env, PIP_RETRIES: process.env.PIP_RETRIES ?? '0' };
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

async function install(base: BasePython, into: string): Promise<void> {
  await rm(into, { recursive: true, force: true });
  await run(base.command, ['-m', 'venv', into]);
  await run(pythonIn(into), [
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '--no-input',
    '-r',
    requirements,
    '-c',
    constraints,
  ]);
  await writeFile(join(into, 'installed-by-parley'), `${new Date().toISOString()}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lock older than this is left over from a run that died; it is taken over. */
const STALE_LOCK_MS = 30 * 60_000;

/**
 * The venv's Python, installing it first when this machine has none yet. The venv is complete
 * when its directory exists: it is built elsewhere and renamed into place.
 */
export async function fastmcpPython(base: BasePython): Promise<string> {
  const venv = venvDirFor(base);
  const lock = `${venv}.lock`;
  await mkdir(cacheRoot(), { recursive: true });
  for (;;) {
    if (existsSync(venv)) return pythonIn(venv);
    try {
      await mkdir(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await sleep(1_000);
      continue;
    }
    const building = `${venv}.building-${process.pid}`;
    try {
      if (existsSync(venv)) continue;
      await install(base, building);
      // Only `bin/python` is used, which works from the renamed directory (pyvenv.cfg is found
      // next to it); the scripts pip wrote name the old path and are never run.
      await rename(building, venv);
    } catch (error) {
      await rm(building, { recursive: true, force: true });
      throw error;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}
