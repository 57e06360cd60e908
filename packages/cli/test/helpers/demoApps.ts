import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The repository's demo apps as real child processes. `@parley/client` tests may not import
 * the server or the apps (dependency rules), and the CLI talks to servers across a process
 * boundary anyway.
 */

export const repoRoot: string = fileURLToPath(new URL('../../../..', import.meta.url));

/** How to run a TypeScript entry of the repository from source. */
export const NODE_FROM_SOURCE: string[] = ['--conditions=@parley/source', '--import', 'tsx'];

export type DemoApp = 'booking' | 'reporting' | 'dual-era';

const PORT_VARIABLE: Record<DemoApp, string> = {
  booking: 'BOOKING_PORT',
  reporting: 'REPORTING_PORT',
  'dual-era': 'DUAL_ERA_PORT',
};

export function appEntry(app: DemoApp): string {
  return `${repoRoot}apps/${app}/src/main.ts`;
}

/** The words that start `app` over stdio, for `parley … -- <these>`. */
export function stdioCommand(app: DemoApp): string[] {
  return [process.execPath, ...NODE_FROM_SOURCE, appEntry(app), '--stdio'];
}

export interface RunningApp {
  url: string;
  stop(): Promise<void>;
}

/** Start `app` over HTTP on a port the system picks, and wait for the URL it prints. */
export async function startApp(app: DemoApp, timeoutMs = 25_000): Promise<RunningApp> {
  const child: ChildProcess = spawn(process.execPath, [...NODE_FROM_SOURCE, appEntry(app)], {
    cwd: repoRoot,
    env: { ...process.env, [PORT_VARIABLE[app]]: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let seen = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${app} did not start in ${timeoutMs} ms:\n${seen}`)),
      timeoutMs,
    );
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      seen += chunk;
      const match = /serving (http:\/\/\S+)/.exec(seen);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${app} exited with ${code} before serving:\n${seen}`));
    });
  });
  // Keep draining its per-round log lines so the pipe never fills up.
  child.stderr!.resume();
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
