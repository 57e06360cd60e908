import { describeError } from './describeError.ts';
import type { ServerTarget } from './parseArgs.ts';

/**
 * A failed connection, said as what to check: the SDK reports a refused port as
 * `Version negotiation probe failed: fetch failed` with `ECONNREFUSED` three causes down, and a
 * wrong path as `Error POSTing to endpoint`; a person needs "nothing is listening at …: is the
 * server running?".
 */

/** The connection failed before any call; the message says what to check. */
export class ConnectionProblem extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'ConnectionProblem';
  }
}

interface Failure {
  code?: unknown;
  message?: unknown;
  data?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first. */
function chain(error: unknown): Failure[] {
  const errors: Failure[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    errors.push(current as Failure);
    current = (current as Failure).cause;
  }
  return errors;
}

function withCode(errors: Failure[], ...codes: string[]): Failure | undefined {
  return errors.find((error) => typeof error.code === 'string' && codes.includes(error.code));
}

function httpStatus(errors: Failure[]): { status: number; statusText: string } | undefined {
  for (const error of errors) {
    const data = error.data as { status?: unknown; statusText?: unknown } | undefined;
    if (typeof data?.status === 'number') {
      return {
        status: data.status,
        statusText: typeof data.statusText === 'string' ? data.statusText : '',
      };
    }
  }
  return undefined;
}

function explainHttp(url: string, errors: Failure[], timeoutMs: number): string | undefined {
  const { host, hostname, pathname } = new URL(url);
  if (withCode(errors, 'ECONNREFUSED') !== undefined)
    return `Nothing is listening at ${url}: is the server running, and on port ${new URL(url).port || 'the default'}?`;
  if (withCode(errors, 'ENOTFOUND', 'EAI_AGAIN') !== undefined)
    return `There is no host named ${hostname} (${url}): check the URL.`;
  if (withCode(errors, 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET') !== undefined)
    return `${host} closed the connection (${url}): is it an MCP server, and is the URL http:// or https:// as it expects?`;
  if (withCode(errors, 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'REQUEST_TIMEOUT') !== undefined)
    return `${url} did not answer within ${timeoutMs} ms: is it an MCP server? (--timeout waits longer)`;
  if (errors.some((error) => error.message === 'bad port'))
    return `${url}: fetch refuses to connect to port ${new URL(url).port} (a port browsers block); run the server on another port.`;
  const status = httpStatus(errors);
  if (status !== undefined) {
    const answered = `${url} answered HTTP ${status.status}${status.statusText !== '' ? ` ${status.statusText}` : ''}`;
    if (status.status === 404)
      return `${answered}: is ${pathname} the server's MCP endpoint? (it is often /mcp)`;
    if (status.status === 401 || status.status === 403)
      return `${answered}: the server wants authorization, which parley does not send.`;
    if (status.status === 405)
      return `${answered}: that URL does not take MCP requests; is it the server's MCP endpoint?`;
    return `${answered}: is it an MCP server?`;
  }
  return undefined;
}

function explainStdio(command: string, errors: Failure[], timeoutMs: number): string | undefined {
  if (withCode(errors, 'ENOENT') !== undefined)
    return `Could not start ${command}: there is no such command (is it installed, and on PATH?).`;
  if (withCode(errors, 'EACCES') !== undefined)
    return `Could not start ${command}: permission denied (is it executable?).`;
  if (withCode(errors, 'CONNECTION_CLOSED') !== undefined)
    return `${command} exited before it answered: run it on its own, or add --server-stderr to see why.`;
  if (withCode(errors, 'REQUEST_TIMEOUT') !== undefined)
    return `${command} started but did not answer within ${timeoutMs} ms: does it speak MCP on stdio? (--timeout waits longer)`;
  return undefined;
}

/** What to tell a person whose connection to `target` failed with `error`. */
export function explainConnectionFailure(
  error: unknown,
  target: ServerTarget,
  timeoutMs: number,
): string {
  const errors = chain(error);
  const explained =
    target.kind === 'http'
      ? explainHttp(target.url, errors, timeoutMs)
      : explainStdio(target.command.command, errors, timeoutMs);
  return explained ?? `Could not connect: ${describeError(error)}`;
}
