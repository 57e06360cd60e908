import { execFile, spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { promisify } from 'node:util';

/**
 * A real pseudo-terminal, driven the way a person drives one: tmux runs the command in a pane,
 * `send-keys` types, `capture-pane` reads the screen. Waits poll the screen instead of
 * sleeping, so a slow shared machine only makes the test slower, never wrong.
 */

const run = promisify(execFile);

/** Fails with a reason a person can act on when tmux is missing (CI installs it). */
export function requireTmux(): void {
  const probe = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(
      'The terminal test needs tmux on PATH (apt-get install tmux / brew install tmux); CI installs it. ' +
        `Probing 'tmux -V' failed: ${probe.error?.message ?? probe.stderr}`,
    );
  }
}

export interface TmuxTerminal {
  /** Type text literally (no key names). */
  type(text: string): Promise<void>;
  /** Press keys by tmux name: `Enter`, `Down`, `Space`, `C-c`, `BSpace`. */
  press(...keys: string[]): Promise<void>;
  /** The whole screen, scrollback included, as plain text. */
  screen(): Promise<string>;
  /** Poll the screen until `test` holds; on timeout, fail showing the screen. */
  waitFor(
    description: string,
    test: (screen: string) => boolean,
    timeoutMs?: number,
  ): Promise<string>;
  kill(): Promise<void>;
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

let sessions = 0;

/**
 * Start `command` (words, run without a shell's interpretation) in a fresh tmux session on a
 * socket of its own. When it exits, the pane shows `[exit <code>]` and stays open.
 */
export async function openTerminal(
  command: string[],
  { cwd, columns = 120, rows = 40 }: { cwd: string; columns?: number; rows?: number },
): Promise<TmuxTerminal> {
  sessions += 1;
  // A socket per test process and session: parallel runs and stale servers never meet.
  const socket = `parley-test-${process.pid}-${sessions}`;
  const tmux = (...args: string[]) =>
    run('tmux', ['-u', '-L', socket, ...args], { encoding: 'utf8' });
  // Keep the pane open after the command exits, with nothing looked up on PATH (a CI shell may
  // have a minimal one): the test's own node binary idles instead of `sleep`.
  const idle = `exec ${shellQuote(process.execPath)} -e 'setTimeout(() => {}, 3600000)'`;
  const line = `${command.map(shellQuote).join(' ')}; echo "[exit $?]"; ${idle}`;
  await tmux('new-session', '-d', '-x', String(columns), '-y', String(rows), '-c', cwd, line);
  // tmux leaves its socket file behind when the server is killed; remove it with the session.
  const socketPath = (await tmux('display-message', '-p', '#{socket_path}')).stdout.trim();

  const screen = async () => (await tmux('capture-pane', '-p', '-J', '-S', '-500')).stdout;
  return {
    async type(text) {
      await tmux('send-keys', '-l', text);
    },
    async press(...keys) {
      for (const key of keys) await tmux('send-keys', key);
    },
    screen,
    async waitFor(description, test, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = await screen();
        if (test(last)) return last;
        if (Date.now() > deadline) {
          throw new Error(
            `Timed out after ${timeoutMs} ms waiting for ${description}. The screen:\n${last}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async kill() {
      await tmux('kill-server').catch(() => undefined);
      if (socketPath !== '') await rm(socketPath, { force: true });
    },
  };
}
