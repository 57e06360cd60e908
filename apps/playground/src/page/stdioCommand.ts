import { FORWARDER_HEADER, FORWARDER_HEADER_VALUE } from '../forwarderHeader.ts';

/**
 * A command the playground starts for this page (see the server's stdioBridge.ts): the page asks
 * for it with the token the playground wrote into the page, then reads its stderr and its end
 * from an event stream that keeps it alive — closing the stream (leaving the page) stops it.
 */

const TOKEN_HEADER = 'x-parley-stdio-token';

/** The token the playground wrote into this page; empty when the page came from another host. */
function token(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="parley-stdio-token"]')?.content ?? '';
}

/** The headers every request to a command carries. */
export function commandHeaders(): Record<string, string> {
  return { [FORWARDER_HEADER]: FORWARDER_HEADER_VALUE, [TOKEN_HEADER]: token() };
}

export interface RunningCommand {
  /** The command's MCP endpoint on this origin. */
  url: string;
  /** The command line as the playground ran it. */
  command: string;
  /** Stop reading its events, which stops it. */
  stop(): void;
  /** Why it ended, once it has. */
  ended: Promise<string>;
}

async function problemOf(response: Response): Promise<string> {
  try {
    return ((await response.json()) as { error?: string }).error ?? `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status}`;
  }
}

export async function startCommand(
  command: string,
  on: { stderr(line: string): void; exit(sentence: string): void },
): Promise<RunningCommand | { problem: string }> {
  if (token() === '') {
    return {
      problem:
        'This page has no token for starting commands: open the playground at its own address (http://127.0.0.1:<port>/).',
    };
  }
  let response: Response;
  try {
    response = await fetch('/stdio/start', {
      method: 'POST',
      headers: { ...commandHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ command }),
    });
  } catch {
    return { problem: 'The playground did not answer: is it still running?' };
  }
  if (response.status !== 201) {
    const problem = await problemOf(response);
    return { problem: /[.!?]$/.test(problem) ? problem : `${problem}.` };
  }
  const started = (await response.json()) as { mcp: string; events: string; command: string };
  const abort = new AbortController();
  const ended = new Promise<string>((resolve) => {
    void readEvents(started.events, abort.signal, {
      stderr: on.stderr,
      exit: (sentence) => {
        resolve(sentence);
        on.exit(sentence);
      },
    });
  });
  return {
    url: new URL(started.mcp, location.href).href,
    command: started.command,
    stop: () => abort.abort(),
    ended,
  };
}

async function readEvents(
  path: string,
  signal: AbortSignal,
  on: { stderr(line: string): void; exit(sentence: string): void },
): Promise<void> {
  try {
    const response = await fetch(path, { headers: commandHeaders(), signal });
    if (!response.ok || response.body === null) {
      on.exit(await problemOf(response));
      return;
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const [eventLine = '', dataLine = ''] = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        const data = JSON.parse(dataLine.replace(/^data: /, '')) as {
          line?: string;
          sentence?: string;
        };
        if (eventLine === 'event: stderr') on.stderr(data.line ?? '');
        if (eventLine === 'event: exit') on.exit(data.sentence ?? 'The command ended.');
      }
    }
  } catch {
    // Stopped by the page (disconnect, reload): nothing to say.
  }
}
