// @ts-check
/**
 * `pnpm dev`: start the three demo apps over HTTP on 127.0.0.1, then the playground (a browser
 * client, given the apps' URLs), restart each when its sources change (node --watch), and print
 * their URLs with ready-to-paste client configurations.
 *
 * Ports come from BOOKING_PORT, REPORTING_PORT and DUAL_ERA_PORT (default 3001–3003) and
 * PLAYGROUND_PORT (default 3000); 0 picks a free one. The banner is built from the URLs the apps
 * print once they listen, so it shows the ports actually bound. An app whose port is taken, or
 * whose variable is not a port, gets one line that names the variable to change, and the others
 * start anyway. Ctrl-C (SIGINT) or SIGTERM stops every app and waits until each has exited.
 */
import { spawn } from 'node:child_process';

import { apps, nodeArgs, playground, repoRoot, requestedPort } from './apps.mjs';

// Coloured prefixes for a terminal; plain ones for a pipe or NO_COLOR.
const coloured = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
const colours = coloured ? ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m'] : [''];
const reset = coloured ? '\x1b[0m' : '';

/**
 * @typedef {import('./apps.mjs').App} App
 * @typedef {{ app: App; prefix: string; state: 'starting' | 'serving' | 'failed'; url?: string; child?: import('node:child_process').ChildProcess }} Run
 */

/** @type {Run[]} */
const runs = apps.map((app, index) => ({
  app,
  prefix: `${colours[index % colours.length]}[${app.name}]${reset} `,
  state: 'starting',
}));
/** Started once every app serves or has failed, so it can be given their URLs. @type {Run} */
const playgroundRun = {
  app: playground,
  prefix: `${colours[apps.length % colours.length]}[${playground.name}]${reset} `,
  state: 'starting',
};
let playgroundStarted = false;
let bannerShown = false;
let stopping = false;

/** @param {Run[]} serving */
function banner(serving) {
  const http = Object.fromEntries(
    serving.map((run) => [`parley-${run.app.name}`, { type: 'http', url: run.url }]),
  );
  const stdio = Object.fromEntries(
    apps.map((app) => [
      `parley-${app.name}`,
      { command: process.execPath, args: nodeArgs(app.entry, '--stdio') },
    ]),
  );
  const booking = serving.find((run) => run.app.name === 'booking');
  const page = playgroundRun.state === 'serving' ? playgroundRun : undefined;
  const notStarted = runs.length - serving.length + (page === undefined ? 1 : 0);
  const lines = [
    '',
    'Parley demo apps',
    ...serving.map((run) => `  ${run.app.title.padEnd(18)} ${run.url}`),
    ...(page !== undefined ? [`  ${page.app.title.padEnd(18)} ${page.url}`] : []),
    ...(notStarted > 0
      ? [`  (${notStarted} not started: see the line${notStarted > 1 ? 's' : ''} above)`]
      : []),
    '',
    'Answer them from a terminal:',
    ...serving.map((run) => `  pnpm parley tools ${run.url}`),
    ...(booking !== undefined ? [`  pnpm parley call ${booking.url} book_flight`] : []),
    '',
    'VS Code (.vscode/mcp.json) and other hosts that speak HTTP:',
    JSON.stringify({ servers: http }, null, 2),
    '',
    'Claude Code:',
    ...serving.map((run) => `  claude mcp add --transport http parley-${run.app.name} ${run.url}`),
    '',
    'Claude Desktop / Cursor (stdio; claude_desktop_config.json, .cursor/mcp.json):',
    JSON.stringify({ mcpServers: stdio }, null, 2),
    '',
    'Sources are watched: edit an app and it restarts. Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Once every app serves or has failed: the playground, given the URLs of those that serve; once
 * it serves or has failed too, the banner. The end when no app serves.
 */
function settle() {
  if (bannerShown || runs.some((run) => run.state === 'starting')) return;
  const serving = runs.filter((run) => run.state === 'serving');
  if (serving.length === 0) {
    bannerShown = true;
    process.stderr.write('No demo app started.\n');
    void stop(1);
    return;
  }
  if (!playgroundStarted) {
    playgroundStarted = true;
    const requested = requestedPort(playground);
    if ('problem' in requested) fail(playgroundRun, requested.problem);
    else {
      const servers = serving.map((run) => ({
        name: run.app.name,
        title: run.app.title,
        url: run.url,
      }));
      start(playgroundRun, requested.port, { PLAYGROUND_SERVERS: JSON.stringify(servers) });
    }
    return;
  }
  if (playgroundRun.state === 'starting') return;
  bannerShown = true;
  banner(serving);
}

/**
 * @param {Run} run
 * @param {string} problem
 */
function fail(run, problem) {
  run.state = 'failed';
  process.stderr.write(`${run.prefix}${problem}\n`);
  // Watching would only wait for an edit that cannot free the port.
  run.child?.kill('SIGTERM');
  settle();
}

/**
 * @param {Run} run
 * @param {string} line
 * @param {NodeJS.WritableStream} out
 */
function onLine(run, line, out) {
  if (run.state === 'failed') return;
  const inUse = /: port (\d+) is in use/.exec(line);
  if (inUse !== null && run.state === 'starting') {
    fail(
      run,
      `port ${inUse[1]} is in use: set ${run.app.portVariable} to a free port, e.g. ${run.app.portVariable}=${Number(inUse[1]) + 100} pnpm dev`,
    );
    return;
  }
  out.write(`${run.prefix}${line}\n`);
  const serving = /serving (http:\/\/\S+)/.exec(line);
  if (serving !== null) {
    run.url = serving[1];
    if (run.state === 'starting') {
      run.state = 'serving';
      settle();
    }
  } else if (run.state === 'starting' && /^Failed running /.test(line)) {
    // It crashed before listening; node --watch restarts it when its sources change.
    run.state = 'failed';
    settle();
  }
}

/**
 * @param {Run} run
 * @param {number} port
 * @param {Record<string, string>} [env]
 */
function start(run, port, env = {}) {
  const child = spawn(
    process.execPath,
    [
      '--watch-path',
      `${repoRoot}apps/${run.app.name}/src`,
      '--watch-path',
      `${repoRoot}packages`,
      ...nodeArgs(run.app.entry),
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env, [run.app.portVariable]: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  run.child = child;
  /** @param {NodeJS.WritableStream} out */
  const relay = (out) => {
    let partial = '';
    return (/** @type {Buffer} */ chunk) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.length > 0) onLine(run, line, out);
    };
  };
  child.stdout?.on('data', relay(process.stdout));
  child.stderr?.on('data', relay(process.stderr));
  child.once('exit', (code, signal) => {
    if (stopping || run.state === 'failed') return;
    process.stderr.write(`${run.prefix}exited (${signal ?? code})\n`);
    run.state = 'failed';
    settle();
  });
}

/**
 * Stop every app and wait for each to exit (SIGKILL after 5 s), then exit.
 *
 * @param {number} code
 */
async function stop(code) {
  if (stopping) return;
  stopping = true;
  const alive = [...runs, playgroundRun]
    .map((run) => run.child)
    .filter((child) => child !== undefined && child.exitCode === null && child.signalCode === null);
  await Promise.all(
    alive.map(
      (child) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => child?.kill('SIGKILL'), 5_000);
          child?.once('exit', () => {
            clearTimeout(timer);
            resolve(undefined);
          });
          child?.kill('SIGTERM');
        }),
    ),
  );
  process.exit(code);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

for (const run of runs) {
  const requested = requestedPort(run.app);
  if ('problem' in requested) fail(run, requested.problem);
  else start(run, requested.port);
}
