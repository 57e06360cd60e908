import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';

import { Client } from '@parley/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { apps, playground, repoRoot, requestedPort } from '../../../scripts/apps.mjs';

/**
 * `pnpm dev` for real: the script started as its own process group with the port variables
 * set, one port already taken, the others left to the system (0); then what it prints, whether
 * the apps it started answer, and whether Ctrl-C (SIGINT to the script alone) leaves no process
 * of the group behind.
 */

function listen(port = 0): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: Server) => (server.address() as { port: number }).port;

/** True while any process of the group `pgid` is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, test: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('pnpm dev (scripts/dev.mjs)', () => {
  let occupied: Server;
  let dev: ChildProcess;
  let stdout = '';
  let stderr = '';
  let exit: Promise<number | null>;

  beforeAll(async () => {
    occupied = await listen();
    dev = spawn(process.execPath, ['scripts/dev.mjs'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        BOOKING_PORT: String(portOf(occupied)),
        REPORTING_PORT: '0',
        DUAL_ERA_PORT: '0',
        PLAYGROUND_PORT: '0',
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A process group of its own, so the test can tell whether anything of it outlives it.
      detached: true,
    });
    dev.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    dev.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    exit = new Promise((resolve) => dev.once('exit', (code) => resolve(code)));
    await until(`the banner; so far:\n${stdout}\n${stderr}`, () =>
      stdout.includes('Ctrl-C stops everything.'),
    );
  }, 90_000);

  afterAll(async () => {
    if (dev?.pid !== undefined && groupAlive(dev.pid)) process.kill(-dev.pid, 'SIGKILL');
    await new Promise((resolve) => occupied?.close(resolve));
  });

  test('a port in use gets one line naming the variable, and no stack trace', () => {
    const port = portOf(occupied);
    const lines = stderr.split('\n').filter((line) => line.includes(String(port)));
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `\\[booking\\].* port ${port} is in use: set BOOKING_PORT to a free port, e.g. BOOKING_PORT=${port + 100} pnpm dev$`,
        ),
      ),
    ]);
    expect(`${stdout}${stderr}`).not.toMatch(/EADDRINUSE|at .*\(node:|Failed running/);
  });

  test('the banner shows the ports actually bound, and only the apps that serve', async () => {
    const urls = [...stdout.matchAll(/^ {2}(?:Reporting|Dual-Era) Server +(\S+)$/gm)].map(
      (match) => match[1]!,
    );
    expect(urls).toHaveLength(2);
    for (const url of urls) {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(new URL(url).port).not.toBe('0');
      expect(stdout).toContain(`pnpm parley tools ${url}`);
    }
    expect(stdout).not.toMatch(/Booking Server +http/);
    expect(stdout).toContain('(1 not started: see the line above)');
    // Both other apps answer at the URLs the banner printed.
    for (const url of urls) {
      await using client = new Client(url, { mode: 'modern' });
      await client.connect();
      expect((await client.listTools()).length).toBeGreaterThan(0);
    }
  });

  test('the banner shows the playground, which serves its page and lists the apps that serve', async () => {
    const url = /^ {2}Playground +(\S+)$/m.exec(stdout)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(new URL(url!).port).not.toBe('0');
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Parley playground</title>');
    const script = await fetch(new URL('/app.js', url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    const urls = [...stdout.matchAll(/^ {2}(?:Reporting|Dual-Era) Server +(\S+)$/gm)].map(
      (match) => match[1]!,
    );
    const config = (await (await fetch(new URL('/config.json', url))).json()) as {
      servers: { url: string }[];
    };
    expect(config.servers.map((server) => server.url)).toEqual(urls);
  });

  test('Ctrl-C stops everything: the script exits 0 and no process of its group is left', async () => {
    const urls = [
      ...stdout.matchAll(/^ {2}(?:Reporting Server|Dual-Era Server|Playground) +(\S+)$/gm),
    ].map((match) => match[1]!);
    expect(urls).toHaveLength(3);
    expect(groupAlive(dev.pid!)).toBe(true);
    dev.kill('SIGINT');
    expect(await exit).toBe(0);
    await until('every process of the group to exit', () => !groupAlive(dev.pid!), 10_000);
    // The ports are free again.
    for (const url of urls) {
      const server = await listen(Number(new URL(url).port));
      await new Promise((resolve) => server.close(resolve));
    }
  }, 30_000);
});

test('a port variable that is not a port is refused with a reason naming it', () => {
  const booking = apps.find((app) => app.name === 'booking')!;
  expect(requestedPort(booking, {})).toEqual({ port: 3001 });
  expect(requestedPort(booking, { BOOKING_PORT: '4100' })).toEqual({ port: 4100 });
  expect(requestedPort(booking, { BOOKING_PORT: '0' })).toEqual({ port: 0 });
  for (const value of ['abc', '-1', '70000', '3.5']) {
    expect(requestedPort(booking, { BOOKING_PORT: value })).toEqual({
      problem: `BOOKING_PORT=${value} is not a port: set it to a number from 0 to 65535 (0 picks a free one).`,
    });
  }
  expect(requestedPort(playground, {})).toEqual({ port: 3000 });
  expect(requestedPort(playground, { PLAYGROUND_PORT: 'x' })).toEqual({
    problem:
      'PLAYGROUND_PORT=x is not a port: set it to a number from 0 to 65535 (0 picks a free one).',
  });
});
