import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';

import { formatCommand } from './commandLine.ts';
import { sendJsonError } from './proxyAnswer.ts';

/**
 * One command the person started: its child process, and the JSON-RPC between the page's HTTP
 * requests and the child's stdin/stdout. The page's Client speaks Streamable HTTP; the child
 * speaks newline-delimited JSON-RPC. A request the page POSTs waits for the child's response with
 * the same id; whatever the child sends meanwhile (its own requests, notifications) goes on that
 * request's answer, which turns into an event stream for it, or else on the page's GET stream,
 * or waits for one. stdio carries no "related to" marks, so the newest waiting request takes it
 * (the SDK client reads a server's request from any stream).
 */

type Message = Record<string, unknown>;

/** How many lines of stderr a late page still sees. */
const STDERR_LINES_KEPT = 500;
/** Whether children get process groups of their own (not on Windows). */
const GROUPS = process.platform !== 'win32';

/** How long a child has between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;

interface Waiting {
  key: string;
  response: ServerResponse;
  streaming: boolean;
}

export interface ChildListener {
  stderr(line: string): void;
  exit(sentence: string): void;
}

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

function isRequest(message: Message): boolean {
  return typeof message['method'] === 'string' && message['id'] !== undefined;
}

function writeEvent(response: ServerResponse, message: Message): void {
  response.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

export class StdioChild {
  readonly command: string;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting: Waiting[] = [];
  private readonly queued: Message[] = [];
  private readonly stderrLines: string[] = [];
  private readonly listeners = new Set<ChildListener>();
  private stream: ServerResponse | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private killReason: string | undefined;
  /** Set once the child is gone: why, in a sentence. */
  ended: string | undefined;
  /** Resolves once the program runs, or with why it could not start. */
  readonly startup: Promise<string | undefined>;

  constructor(
    argv: readonly string[],
    private readonly options: { cwd: string; idleTimeoutMs: number; onEnd: () => void },
  ) {
    this.command = formatCommand(argv);
    this.child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      // Its own process group, so that stopping it stops what it started too (`npx` runs the
      // server as a grandchild).
      detached: GROUPS,
    });
    // A child gone mid-write is reported by its exit, not by a crash here.
    this.child.stdin.on('error', () => {});
    createInterface({ input: this.child.stdout }).on('line', (line) => this.fromChild(line));
    createInterface({ input: this.child.stderr }).on('line', (line) => this.log(line));
    // `close`, not `exit`: the last lines of stdout and stderr are read by then.
    this.child.once('close', (code, signal) => this.end(this.exitSentence(code, signal)));
    this.startup = new Promise((resolve) => {
      this.child.once('spawn', () => resolve(undefined));
      this.child.once('error', (error: NodeJS.ErrnoException) => {
        const why =
          error.code === 'ENOENT'
            ? `there is no program ${JSON.stringify(this.child.spawnfile)} (not found on PATH, or no such file)`
            : error.code === 'EACCES'
              ? `${JSON.stringify(this.child.spawnfile)} may not be run (EACCES: not executable)`
              : (error.code ?? error.message);
        const sentence = `Could not start \`${this.command}\`: ${why}.`;
        this.end(sentence);
        resolve(sentence);
      });
    });
    this.touch();
  }

  listen(listener: ChildListener): () => void {
    for (const line of this.stderrLines) listener.stderr(line);
    if (this.ended !== undefined) listener.exit(this.ended);
    else this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A message the page POSTed: a request waits on `response` for its answer. */
  post(message: Message, response: ServerResponse): void {
    this.touch();
    if (this.ended !== undefined) {
      sendJsonError(response, 502, this.ended);
      return;
    }
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    if (!isRequest(message)) {
      response.writeHead(202).end();
      return;
    }
    const waiting: Waiting = { key: JSON.stringify(message['id']), response, streaming: false };
    // A handshake-era session is the child: its id lets the client end it (DELETE) on close.
    if (message['method'] === 'initialize') response.setHeader('mcp-session-id', this.sessionId);
    this.waiting.push(waiting);
    response.once('close', () => this.forget(waiting));
  }

  /** The page's GET stream, for what the child sends outside any request of the page. */
  openStream(response: ServerResponse): void {
    this.touch();
    if (this.ended !== undefined) {
      sendJsonError(response, 502, this.ended);
      return;
    }
    this.stream?.end();
    this.stream = response;
    response.writeHead(200, SSE_HEADERS);
    response.flushHeaders();
    response.once('close', () => {
      if (this.stream === response) this.stream = undefined;
    });
    for (const message of this.queued.splice(0)) writeEvent(response, message);
  }

  /** Stop the child (the page went away, ended the session, or stayed idle). */
  kill(reason: string): void {
    if (this.ended !== undefined || this.killReason !== undefined) return;
    this.killReason = reason;
    this.signal('SIGTERM');
    setTimeout(() => this.signal('SIGKILL'), KILL_GRACE_MS).unref();
  }

  /** Signal the child's whole process group, or the child alone where there are none. */
  private signal(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    try {
      if (GROUPS && pid !== undefined) process.kill(-pid, signal);
      else this.child.kill(signal);
    } catch {
      // Already gone.
    }
  }

  /** The session id the page's Client is given: the child's own, not a secret. */
  get sessionId(): string {
    return `stdio-${this.child.pid ?? 0}`;
  }

  private touch(): void {
    clearTimeout(this.idleTimer);
    if (this.ended !== undefined) return;
    this.idleTimer = setTimeout(
      () => this.kill(`it was idle for ${Math.round(this.options.idleTimeoutMs / 1000)} s`),
      this.options.idleTimeoutMs,
    );
    this.idleTimer.unref();
  }

  private fromChild(line: string): void {
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      // A stdio server must write only JSON-RPC to stdout: show the person what else it wrote.
      this.log(`(stdout, not JSON-RPC) ${line}`);
      return;
    }
    this.touch();
    this.route(message as Message);
  }

  private route(message: Message): void {
    const isResponse = message['method'] === undefined && message['id'] !== undefined;
    const key = JSON.stringify(message['id']);
    const answered = isResponse ? this.waiting.find((w) => w.key === key) : undefined;
    if (answered !== undefined) {
      this.forget(answered);
      if (answered.streaming) {
        writeEvent(answered.response, message);
        answered.response.end();
      } else {
        const body = JSON.stringify(message);
        answered.response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        });
        answered.response.end(body);
      }
      return;
    }
    const carrier = this.waiting.at(-1);
    if (carrier !== undefined) {
      if (!carrier.streaming) {
        carrier.streaming = true;
        carrier.response.writeHead(200, SSE_HEADERS);
      }
      writeEvent(carrier.response, message);
    } else if (this.stream !== undefined) {
      writeEvent(this.stream, message);
    } else {
      this.queued.push(message);
    }
  }

  private forget(waiting: Waiting): void {
    const index = this.waiting.indexOf(waiting);
    if (index !== -1) this.waiting.splice(index, 1);
  }

  private log(line: string): void {
    this.stderrLines.push(line);
    if (this.stderrLines.length > STDERR_LINES_KEPT) this.stderrLines.shift();
    for (const listener of this.listeners) listener.stderr(line);
  }

  private exitSentence(code: number | null, signal: NodeJS.Signals | null): string {
    if (this.killReason !== undefined) {
      return `The playground stopped \`${this.command}\`: ${this.killReason}.`;
    }
    const how = code !== null ? `exited with code ${code}` : `was ended by ${signal ?? 'a signal'}`;
    const last = this.stderrLines.at(-1);
    return `\`${this.command}\` ${how}${last === undefined ? '' : `; its last words on stderr: ${last}`}.`;
  }

  private end(sentence: string): void {
    if (this.ended !== undefined) return;
    this.ended = sentence;
    clearTimeout(this.idleTimer);
    for (const waiting of this.waiting.splice(0)) {
      if (waiting.streaming) waiting.response.end();
      else sendJsonError(waiting.response, 502, sentence);
    }
    this.stream?.end();
    for (const listener of this.listeners) listener.exit(sentence);
    this.listeners.clear();
    this.options.onEnd();
  }
}
