import type { IncomingMessage, ServerResponse } from 'node:http';

import { parseCommand } from './commandLine.ts';
import { sendJsonError } from './proxyAnswer.ts';
import { stdioAccessProblem } from './stdioAccess.ts';
import { StdioChild } from './stdioChild.ts';

/**
 * The playground's stdio servers: the page POSTs a command to `/stdio/start`, the playground
 * starts it (argv parsed without a shell) and answers with its endpoint, `/stdio/<id>/mcp`, where
 * the page's Client speaks Streamable HTTP to it (see StdioChild), and `/stdio/<id>/events`, the
 * child's stderr and exit for the person to read. The child is stopped when that event stream
 * closes (the page went away), on DELETE, after `idleTimeoutMs` without a message, and when the
 * playground stops. Every route answers only the playground's own page (stdioAccess.ts).
 */

export const STDIO_PATH = '/stdio/';

export interface StdioOptions {
  /** Where commands run. Default: the playground's working directory. */
  cwd: string;
  /** A command with no request or message for this long is stopped. Default 10 minutes. */
  idleTimeoutMs: number;
  /** How many commands may run at once. Default 8. */
  maxChildren: number;
}

export const DEFAULT_STDIO_OPTIONS: StdioOptions = {
  cwd: process.cwd(),
  idleTimeoutMs: 10 * 60_000,
  maxChildren: 8,
};

/** How long the page can still learn why a command ended. */
const ENDED_KEPT_MS = 60_000;

/** The largest JSON-RPC message the page may send to a child. */
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export interface StdioBridge {
  handle(request: IncomingMessage, response: ServerResponse, url: URL, port: number): void;
  /** Stop every child (the playground is stopping). */
  closeAll(reason: string): void;
}

function readJson(request: IncomingMessage): Promise<{ value: unknown } | { problem: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_MESSAGE_BYTES) {
        resolve({ problem: `the message is larger than ${MAX_MESSAGE_BYTES} bytes` });
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('error', () => resolve({ problem: 'the request broke off' }));
    request.on('end', () => {
      try {
        resolve({ value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ problem: 'the body is not JSON' });
      }
    });
  });
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

export function createStdioBridge(token: string, given: Partial<StdioOptions> = {}): StdioBridge {
  const options = { ...DEFAULT_STDIO_OPTIONS, ...given };
  const children = new Map<string, StdioChild>();
  let counter = 0;

  async function start(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    if ('problem' in body) return sendJsonError(response, 400, body.problem);
    const command = isObject(body.value) ? body.value['command'] : undefined;
    if (typeof command !== 'string') {
      return sendJsonError(response, 400, 'the body must be { "command": "<a command line>" }');
    }
    const parsed = parseCommand(command);
    if ('problem' in parsed) return sendJsonError(response, 400, parsed.problem);
    const running = [...children.values()].filter((child) => child.ended === undefined).length;
    if (running >= options.maxChildren) {
      return sendJsonError(
        response,
        429,
        `${running} commands are running already; disconnect one first`,
      );
    }
    counter += 1;
    const id = String(counter);
    const child = new StdioChild(parsed.argv, {
      cwd: options.cwd,
      idleTimeoutMs: options.idleTimeoutMs,
      // The page still learns why it ended, for a minute.
      onEnd: () => setTimeout(() => children.delete(id), ENDED_KEPT_MS).unref(),
    });
    children.set(id, child);
    const failed = await child.startup;
    if (failed !== undefined) return sendJsonError(response, 400, failed);
    sendJson(response, 201, {
      id,
      command: child.command,
      mcp: `${STDIO_PATH}${id}/mcp`,
      events: `${STDIO_PATH}${id}/events`,
    });
  }

  function events(child: StdioChild, response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.flushHeaders();
    const send = (event: string, data: unknown) =>
      response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const stop = child.listen({
      stderr: (line) => send('stderr', { line }),
      exit: (sentence) => {
        send('exit', { sentence });
        response.end();
      },
    });
    // The page that started the child is gone (closed, reloaded, disconnected): so is the child.
    response.once('close', () => {
      stop();
      child.kill('the page that started it went away');
    });
  }

  async function mcp(child: StdioChild, request: IncomingMessage, response: ServerResponse) {
    if (request.method === 'DELETE') {
      child.kill('the page ended the session');
      response.writeHead(200).end();
      return;
    }
    if (request.method === 'GET') {
      if (!(request.headers.accept ?? '').includes('text/event-stream')) {
        response.setHeader('allow', 'POST, GET, DELETE');
        return sendJsonError(
          response,
          405,
          'GET opens an event stream (Accept: text/event-stream)',
        );
      }
      child.openStream(response);
      return;
    }
    const body = await readJson(request);
    if ('problem' in body) return sendJsonError(response, 400, body.problem);
    if (!isObject(body.value) || body.value['jsonrpc'] !== '2.0') {
      return sendJsonError(response, 400, 'the body must be one JSON-RPC 2.0 message');
    }
    child.post(body.value, response);
  }

  function route(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const rest = url.pathname.slice(STDIO_PATH.length);
    if (rest === 'start') {
      if (method !== 'POST') {
        response.setHeader('allow', 'POST');
        sendJsonError(response, 405, 'POST a { "command" } to start one');
        return Promise.resolve();
      }
      return start(request, response);
    }
    const [id, what, ...more] = rest.split('/');
    const child = children.get(id ?? '');
    if (child === undefined || more.length > 0 || (what !== 'mcp' && what !== 'events')) {
      sendJsonError(response, 404, 'no such command: it exited, or was stopped');
      return Promise.resolve();
    }
    if (what === 'events') {
      if (method !== 'GET') {
        response.setHeader('allow', 'GET');
        sendJsonError(response, 405, 'the events are read with GET');
      } else events(child, response);
      return Promise.resolve();
    }
    if (!['GET', 'POST', 'DELETE'].includes(method)) {
      response.setHeader('allow', 'POST, GET, DELETE');
      sendJsonError(response, 405, `${method} is not part of MCP over HTTP`);
      return Promise.resolve();
    }
    return mcp(child, request, response);
  }

  const closeAll = (reason: string) => {
    for (const child of children.values()) child.kill(reason);
  };
  // However the playground ends, its children end with it.
  process.once('exit', () => closeAll('the playground stopped'));

  return {
    handle(request, response, url, port) {
      response.on('error', () => response.destroy());
      const problem = stdioAccessProblem(request, port, token);
      if (problem !== undefined) {
        sendJsonError(response, 403, problem);
        return;
      }
      route(request, response, url).catch((error: unknown) =>
        sendJsonError(response, 500, `the stdio bridge failed: ${String(error)}`),
      );
    },
    closeAll,
  };
}
