import { spawn, type IPty } from '@lydell/node-pty';
import xterm from '@xterm/headless';

/**
 * A real pseudo-terminal, driven the way a person drives one, with nothing installed on the
 * machine: `@lydell/node-pty` (prebuilt) runs the command on a pty, keys are written to it as a
 * terminal sends them, and `@xterm/headless` interprets everything the command draws, so
 * `screen()` is what a person would see. Waits poll the screen instead of sleeping, so a slow
 * shared machine only makes the test slower, never wrong.
 */

/** Keys by name, as a terminal in its default (normal cursor) mode sends them. */
const KEYS = {
  Enter: '\r',
  Escape: '\x1b',
  Tab: '\t',
  Space: ' ',
  Backspace: '\x7f',
  Up: '\x1b[A',
  Down: '\x1b[B',
  Right: '\x1b[C',
  Left: '\x1b[D',
  'C-c': '\x03',
  'C-d': '\x04',
} as const;
export type KeyName = keyof typeof KEYS;

export interface PseudoTerminal {
  /** Type text as it is, character by character. */
  type(text: string): Promise<void>;
  /** Press keys by name: `Enter`, `Escape`, `Down`, `Space`, `C-c`, `C-d`, … */
  press(...keys: KeyName[]): Promise<void>;
  /** The whole screen, scrollback included, as plain text; wrapped lines joined. */
  screen(): string;
  /** Poll the screen until `test` holds; on timeout, fail showing the screen. */
  waitFor(
    description: string,
    test: (screen: string) => boolean,
    timeoutMs?: number,
  ): Promise<string>;
  /** Resolves with the exit code when the command has exited and its output is drawn. */
  readonly exited: Promise<number>;
  kill(): Promise<void>;
}

/**
 * Escape is sent alone; readline waits this long to tell it from the start of an arrow key, so
 * the next key must come later than that.
 */
const ESCAPE_TIMEOUT_MS = 120;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Start `command` (words, no shell) on a pseudo-terminal of `columns` × `rows`. */
export function openTerminal(
  command: string[],
  {
    cwd,
    env = process.env,
    columns = 120,
    rows = 40,
  }: { cwd: string; env?: NodeJS.ProcessEnv; columns?: number; rows?: number },
): PseudoTerminal {
  const [file, ...args] = command;
  if (file === undefined) throw new TypeError('openTerminal: no command');
  const terminal = new xterm.Terminal({
    cols: columns,
    rows,
    scrollback: 5_000,
    allowProposedApi: true,
  });
  const pty: IPty = spawn(file, args, {
    name: 'xterm-256color',
    cols: columns,
    rows,
    cwd,
    env: { ...env, TERM: 'xterm-256color' } as Record<string, string>,
  });
  // xterm parses asynchronously: keep the last write, so the exit waits for the screen.
  let drawn: Promise<void> = Promise.resolve();
  pty.onData((data) => {
    drawn = drawn.then(() => new Promise<void>((resolve) => terminal.write(data, resolve)));
  });
  let running = true;
  const exited = new Promise<number>((resolve) => {
    pty.onExit(({ exitCode }) => {
      running = false;
      void drawn.then(() => resolve(exitCode));
    });
  });

  const screen = () => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let index = 0; index < buffer.length; index += 1) {
      const line = buffer.getLine(index);
      if (line === undefined) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines.join('\n').replace(/\n+$/, '\n');
  };

  return {
    async type(text) {
      for (const char of text) pty.write(char);
      await pause(10);
    },
    async press(...keys) {
      for (const key of keys) {
        pty.write(KEYS[key]);
        await pause(key === 'Escape' ? ESCAPE_TIMEOUT_MS : 10);
      }
    },
    screen,
    async waitFor(description, test, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await drawn;
        const now = screen();
        if (test(now)) return now;
        if (Date.now() > deadline) {
          throw new Error(
            `Timed out after ${timeoutMs} ms waiting for ${description}. The screen:\n${now}`,
          );
        }
        await pause(50);
      }
    },
    exited,
    async kill() {
      if (running) {
        pty.kill();
        await Promise.race([exited, pause(5_000)]);
      }
      terminal.dispose();
    },
  };
}
