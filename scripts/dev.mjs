// @ts-check
/**
 * `pnpm dev`: start the three demo apps over HTTP on 127.0.0.1, restart each when its sources
 * change (tsx watch), and print their URLs with ready-to-paste client configurations.
 */
import { spawn } from 'node:child_process';

import { apps, nodeArgs, repoRoot } from './apps.mjs';

const colours = ['\x1b[36m', '\x1b[35m', '\x1b[33m'];
const reset = '\x1b[0m';
const children = [];

function banner() {
  const http = Object.fromEntries(
    apps.map((app) => [
      `parley-${app.name}`,
      { type: 'http', url: `http://127.0.0.1:${app.port}/mcp` },
    ]),
  );
  const stdio = Object.fromEntries(
    apps.map((app) => [
      `parley-${app.name}`,
      { command: process.execPath, args: nodeArgs(app.entry, '--stdio') },
    ]),
  );
  const lines = [
    '',
    'Parley demo apps',
    ...apps.map((app) => `  ${app.title.padEnd(18)} http://127.0.0.1:${app.port}/mcp`),
    '',
    'Answer them from a terminal:',
    ...apps.map((app) => `  pnpm parley tools http://127.0.0.1:${app.port}/mcp`),
    '  pnpm parley call http://127.0.0.1:3001/mcp book_flight',
    '',
    'VS Code (.vscode/mcp.json) and other hosts that speak HTTP:',
    JSON.stringify({ servers: http }, null, 2),
    '',
    'Claude Code:',
    ...apps.map(
      (app) =>
        `  claude mcp add --transport http parley-${app.name} http://127.0.0.1:${app.port}/mcp`,
    ),
    '',
    'Claude Desktop / Cursor (stdio; claude_desktop_config.json, .cursor/mcp.json):',
    JSON.stringify({ mcpServers: stdio }, null, 2),
    '',
    'Sources are watched: edit an app and it restarts. Ctrl-C stops everything.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

let ready = 0;
apps.forEach((app, index) => {
  const child = spawn(
    process.execPath,
    [
      '--watch-path',
      `${repoRoot}apps/${app.name}/src`,
      '--watch-path',
      `${repoRoot}packages`,
      ...nodeArgs(app.entry),
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, [app.portVariable]: String(app.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  const prefix = `${colours[index % colours.length]}[${app.name}]${reset} `;
  const relay = (/** @type {NodeJS.WritableStream} */ out) => (/** @type {Buffer} */ chunk) => {
    for (const line of chunk.toString().split('\n'))
      if (line.length > 0) out.write(`${prefix}${line}\n`);
    if (chunk.toString().includes('serving http://') && ++ready === apps.length) banner();
  };
  child.stdout?.on('data', relay(process.stdout));
  child.stderr?.on('data', relay(process.stderr));
});

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
