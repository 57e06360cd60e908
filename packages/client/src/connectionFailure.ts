import { UnsupportedProtocolVersionError, checkOptionKeys, optionKeys } from '@parley/core';

/**
 * A failed connection, said as what to check. The SDK reports a refused port as
 * `Version negotiation probe failed: fetch failed` with `ECONNREFUSED` three causes down, and a
 * wrong path as `Error POSTing to endpoint`; a person needs "Nothing is listening at …: is the
 * server running?". One place makes these sentences, so every Parley client (the terminal's,
 * the playground's page) says the same thing for the same failure.
 */

/** How to word what the host can do about a failure; each is left out when not given. */
export interface ConnectionFailureOptions {
  /** How long the client waited for an answer, in ms. */
  timeoutMs: number;
  /** After a timeout, how to wait longer: `'--timeout waits longer'`. */
  timeoutAdvice?: string;
  /** After a 401 or 403, what the host does not do: `'which parley does not send'`. */
  authorizationAdvice?: string;
  /** After a stdio server exits, how to see its stderr: `'add --server-stderr'`. */
  stderrAdvice?: string;
}

const OPTION_KEYS = optionKeys<ConnectionFailureOptions>()([
  'timeoutMs',
  'timeoutAdvice',
  'authorizationAdvice',
  'stderrAdvice',
]);

interface Failure {
  code?: unknown;
  message?: unknown;
  data?: unknown;
  cause?: unknown;
  /** A forwarder's: how long it waited for the server (it times out before the client). */
  timeoutMs?: unknown;
  /** A forwarder's: the content type and status of an answer that was not MCP. */
  contentType?: unknown;
  status?: unknown;
  /** A forwarder's: what it says went wrong. */
  error?: unknown;
  /** Set on what a forwarder said (see `forwarded`). */
  forwarder?: boolean;
}

/**
 * A forwarder in front of the server (the playground's) answers a server it could not reach,
 * or could not use, with a JSON body `{ error, code }` — `code` being the system's error code
 * (`ECONNREFUSED`, …) or `ETIMEDOUT` / `NOT_MCP` — which the SDK's error carries as text. It is
 * read as one more failure of the chain, so the sentence is about the server, not the forwarder.
 */
function forwarded(error: Failure): Failure | undefined {
  const data = error.data as { text?: unknown } | undefined;
  const texts = [data?.text, error.message].filter((text) => typeof text === 'string');
  for (const text of texts) {
    const start = text.indexOf('{"error"');
    if (start < 0) continue;
    try {
      const body = JSON.parse(text.slice(start)) as Failure;
      if (typeof body === 'object' && body !== null && typeof body.code === 'string') {
        return { ...body, forwarder: true };
      }
    } catch {
      // Not a forwarder's body after all.
    }
  }
  return undefined;
}

/** The error and its causes, outermost first, with what a forwarder said after each. */
function chain(error: unknown): Failure[] {
  const errors: Failure[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const failure = current as Failure;
    errors.push(failure);
    const relayed = forwarded(failure);
    if (relayed !== undefined) errors.push(relayed);
    current = failure.cause;
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

/**
 * The content type of an answer that is not MCP, as the SDK reports it
 * (`CLIENT_HTTP_UNEXPECTED_CONTENT`, an HTML page) or a `ConnectionFailedError` carries it.
 */
function notMcpContentType(errors: Failure[]): string | undefined {
  for (const error of errors) {
    if (error.forwarder === true) continue;
    const type = (error.data as { contentType?: unknown } | undefined)?.contentType;
    if (typeof type === 'string') return type;
  }
  return undefined;
}

function aside(advice: string | undefined): string {
  return advice === undefined ? '' : ` (${advice})`;
}

function explainHttp(
  url: string,
  errors: Failure[],
  options: ConnectionFailureOptions,
): string | undefined {
  const { host, hostname, pathname, port } = new URL(url);
  if (withCode(errors, 'ECONNREFUSED') !== undefined)
    return `Nothing is listening at ${url}: is the server running, and on port ${port || 'the default'}?`;
  if (withCode(errors, 'ENOTFOUND', 'EAI_AGAIN') !== undefined)
    return `There is no host named ${hostname} (${url}): check the URL.`;
  if (withCode(errors, 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET') !== undefined)
    return `${host} closed the connection (${url}): is it an MCP server, and is the URL http:// or https:// as it expects?`;
  const late = withCode(errors, 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'REQUEST_TIMEOUT');
  if (late !== undefined) {
    const waited = typeof late.timeoutMs === 'number' ? late.timeoutMs : options.timeoutMs;
    return `${url} did not answer within ${waited} ms: is it an MCP server?${aside(options.timeoutAdvice)}`;
  }
  if (errors.some((error) => error.message === 'bad port'))
    return `${url}: fetch refuses to connect to port ${port} (a port browsers block); run the server on another port.`;
  const status = httpStatus(errors);
  const notMcp = withCode(errors, 'NOT_MCP');
  const contentType = notMcpContentType(errors);
  if (status !== undefined) {
    const answered = `${url} answered HTTP ${status.status}${status.statusText !== '' ? ` ${status.statusText}` : ''}`;
    if (status.status === 404)
      return `${answered}: is ${pathname} the server's MCP endpoint? (it is often /mcp)`;
    if (status.status === 401 || status.status === 403) {
      const advice = options.authorizationAdvice;
      return `${answered}: the server wants authorization${advice === undefined ? '' : `, ${advice}`}.`;
    }
    if (status.status === 405)
      return `${answered}: that URL does not take MCP requests; is it the server's MCP endpoint?`;
    if (contentType !== undefined && notMcp === undefined)
      return `${answered} with ${contentType}, not MCP: is it the server's MCP endpoint? (it is often /mcp)`;
    // The status is the forwarder's own (502) when it relays why: that is said below instead.
    if (errors.every((error) => error.forwarder !== true))
      return `${answered}: is it an MCP server?`;
  }
  if (notMcp !== undefined) {
    const type = typeof notMcp.contentType === 'string' ? notMcp.contentType : 'no content type';
    const upstream = typeof notMcp.status === 'number' ? `HTTP ${notMcp.status} ` : '';
    return `${url} answered ${upstream}with ${type}, not MCP: is it the server's MCP endpoint? (it is often /mcp)`;
  }
  if (contentType !== undefined)
    return `${url} answered with ${contentType}, not MCP: is it the server's MCP endpoint? (it is often /mcp)`;
  const relayed = errors.find((error) => error.forwarder === true);
  if (relayed !== undefined && typeof relayed.error === 'string')
    return `Could not use ${url}: ${relayed.error}.`;
  return undefined;
}

function explainStdio(
  command: string,
  errors: Failure[],
  options: ConnectionFailureOptions,
): string | undefined {
  if (withCode(errors, 'ENOENT') !== undefined)
    return `Could not start ${command}: there is no such command (is it installed, and on PATH?).`;
  if (withCode(errors, 'EACCES') !== undefined)
    return `Could not start ${command}: permission denied (is it executable?).`;
  if (withCode(errors, 'CONNECTION_CLOSED') !== undefined) {
    const advice = options.stderrAdvice;
    return `${command} exited before it answered: run it on its own${advice === undefined ? '' : `, or ${advice}`} to see why.`;
  }
  if (withCode(errors, 'REQUEST_TIMEOUT') !== undefined)
    return `${command} started but did not answer within ${options.timeoutMs} ms: does it speak MCP on stdio?${aside(options.timeoutAdvice)}`;
  return undefined;
}

/**
 * What to tell a person whose connection to `target` (a server's URL, or a stdio command)
 * failed with `error`, as one sentence naming the target and what to check; `undefined` when
 * the failure is not one of those it knows (then say the error itself).
 */
export function explainConnectionFailure(
  error: unknown,
  target: string | URL | { command: string },
  options: ConnectionFailureOptions,
): string | undefined {
  checkOptionKeys('explainConnectionFailure', 'options', options, OPTION_KEYS);
  // A server of the other era answered: the error's own message says which and what to do.
  if (error instanceof UnsupportedProtocolVersionError) return undefined;
  const errors = chain(error);
  if (typeof target === 'object' && !(target instanceof URL)) {
    return explainStdio(target.command, errors, options);
  }
  const url = String(target);
  return URL.canParse(url) ? explainHttp(url, errors, options) : undefined;
}
