/**
 * Real child processes for the FastMCP suite: a Python server over HTTP on 127.0.0.1 (it binds a
 * free port and prints it), and a process's whole output for the one-shot Python client.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Starts `command args` and waits for the line `listening on <port>` on its stdout. */
export function startHttpServer(
  command: string,
  args: string[],
  path = '/mcp',
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on (\d+)/.exec(output)?.[1];
      if (port === undefined) return;
      child.stdout.off('data', onData);
      resolve({ url: `http://127.0.0.1:${port}${path}`, close: () => stop(child) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      reject(
        new Error(`${command} ${args.join(' ')} exited (${code}) before listening:\n${output}`),
      ),
    );
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
