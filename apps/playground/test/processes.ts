import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

import { nodeArgs, repoRoot } from '../../../scripts/apps.mjs';

/** The playground's tests start the apps as child processes, as `pnpm dev` does. */

/** Start `entry` with `env` and resolve with the URL it says it serves. */
export function startApp(
  entry: string,
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, nodeArgs(entry), {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /serving (http:\/\/\S+)/.exec(seen)?.[1];
      if (url !== undefined) resolve({ url, child });
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited (${code}): ${seen}`)));
  });
}

/** A port nothing listens on (bound, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
