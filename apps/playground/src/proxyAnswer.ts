import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * What of a server's answer reaches the page, and how. Everything the forwarder sends is
 * served on the playground's own origin, so only MCP goes through: JSON (read whole, within a
 * size and a time limit) and event streams (streamed as they come). Anything else — an HTML
 * page, a redirect, an upgrade — becomes a JSON error, and never its bytes.
 */

/** The limits of one forwarded answer. */
export interface AnswerLimits {
  /** Milliseconds for a server to answer (connect and send its headers), and then for a JSON body to arrive whole. */
  timeoutMs: number;
  /** The largest JSON body (or other body, which is refused anyway) read, in bytes. */
  maxBodyBytes: number;
}

/**
 * Sent with everything the forwarder answers: were a browser to render it anyway, it would be
 * a sandboxed document that may load nothing and run nothing.
 */
const SAFE_HEADERS = {
  'content-security-policy': "sandbox; default-src 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/**
 * The server's response headers the page may see: the protocol's (`mcp-*`, and
 * `www-authenticate` for authorization) and those that say how to retry. Everything else — the
 * connection's own headers, `trailer`, `content-length` of a body re-sent, cookies, security
 * policies — stays with the forwarder.
 */
const PASSED_RESPONSE_HEADERS = new Set(['www-authenticate', 'retry-after', 'allow']);

/** Statuses whose answer has no body to check. */
const BODILESS = new Set([202, 204, 304]);

function passedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const passed: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && (name.startsWith('mcp-') || PASSED_RESPONSE_HEADERS.has(name))) {
      passed[name] = value;
    }
  }
  return passed;
}

/**
 * What the page learns of a failure besides the sentence: `code` says which (the system's error
 * code for a server not reached, `ETIMEDOUT`, `NOT_MCP`, …), so that the page says it the way
 * the terminal does (@parley/client's `explainConnectionFailure`), about the server, not the
 * forwarder.
 */
export interface ErrorDetails {
  code: string;
  /** `ETIMEDOUT`: how long the forwarder waited. */
  timeoutMs?: number;
  /** `NOT_MCP`: what the server answered. */
  status?: number;
  contentType?: string;
}

/** Answer the page with a JSON error; nothing when the answer has already begun or the page left. */
export function sendJsonError(
  response: ServerResponse,
  status: number,
  error: string,
  details?: ErrorDetails,
): void {
  if (response.writableEnded) return;
  if (response.headersSent || response.destroyed) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ error, ...details });
  response.writeHead(status, {
    ...SAFE_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** The media type of a `content-type`, lower case, without parameters. */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Why an answer could not be read, and its code. */
interface Problem {
  problem: string;
  details: ErrorDetails;
}

/**
 * Read `answer` whole, or fail: more than `maxBodyBytes`, or not all there within `timeoutMs`.
 * A JSON body is read whole before the page gets it, so a failure can still be a JSON error.
 */
function readBody(
  answer: IncomingMessage,
  limits: AnswerLimits,
  done: (result: { body: Buffer } | Problem) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (result: { body: Buffer } | Problem) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if ('problem' in result) answer.destroy();
    done(result);
  };
  const timer = setTimeout(
    () =>
      settle({
        problem: `the server did not send its whole answer within ${limits.timeoutMs} ms`,
        details: { code: 'ETIMEDOUT', timeoutMs: limits.timeoutMs },
      }),
    limits.timeoutMs,
  );
  answer.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limits.maxBodyBytes) {
      settle({
        problem: `the server's answer is larger than ${limits.maxBodyBytes} bytes`,
        details: { code: 'TOO_LARGE' },
      });
      return;
    }
    chunks.push(chunk);
  });
  answer.on('end', () => settle({ body: Buffer.concat(chunks) }));
  answer.on('error', (error) =>
    settle({
      problem: `the server's answer broke off (${error.message})`,
      details: { code: 'ECONNRESET' },
    }),
  );
  answer.on('close', () =>
    settle({
      problem: 'the server closed the connection mid-answer',
      details: { code: 'ECONNRESET' },
    }),
  );
}

/**
 * Relay the server's `answer` to the page. Event streams flow as they come (they stay open
 * while a person answers); JSON is read whole first; a body of any other type is refused, and
 * one with no body passes as its status alone.
 */
export function relayAnswer(
  answer: IncomingMessage,
  response: ServerResponse,
  limits: AnswerLimits,
): void {
  const status = answer.statusCode ?? 0;
  const type = mediaType(answer.headers['content-type']);
  const headers = { ...passedHeaders(answer.headers), ...SAFE_HEADERS };
  if (status < 200 || status > 599) {
    answer.destroy();
    sendJsonError(response, 502, `the server answered status ${status}, which is not MCP`, {
      code: 'NOT_MCP',
      status,
    });
    return;
  }
  if (status >= 300 && status < 400) {
    answer.destroy();
    const location = answer.headers.location;
    sendJsonError(
      response,
      502,
      `the server redirected (${status}${location === undefined ? '' : ` to ${location}`}); the forwarder does not follow redirects: use the URL it names`,
      { code: 'REDIRECT', status },
    );
    return;
  }
  if (BODILESS.has(status)) {
    answer.resume();
    response.writeHead(status, headers);
    response.end();
    return;
  }
  if (type === 'text/event-stream') {
    // Events must reach the page as they come, not when some buffer fills.
    response.writeHead(status, {
      ...headers,
      'content-type': answer.headers['content-type'],
      'x-accel-buffering': 'no',
    });
    response.flushHeaders();
    response.socket?.setNoDelay(true);
    answer.on('error', () => response.destroy());
    answer.pipe(response);
    return;
  }
  readBody(answer, limits, (read) => {
    if ('problem' in read) {
      sendJsonError(response, 502, read.problem, read.details);
      return;
    }
    if (response.destroyed) return;
    if (type === 'application/json') {
      response.writeHead(status, {
        ...headers,
        'content-type': answer.headers['content-type'],
        'content-length': read.body.length,
      });
      response.end(read.body);
      return;
    }
    // Nothing to serve (a DELETE answered 200, say): the status says it all.
    if (read.body.length === 0) {
      response.writeHead(status, headers);
      response.end();
      return;
    }
    // A refusal keeps its status (a 404 still means the session is gone); success in another
    // type is the server's mistake, or a trap: a page that would run on the playground's origin.
    sendJsonError(
      response,
      status >= 400 ? status : 502,
      `the server answered ${status} with ${type === '' ? 'no content type' : type}, not MCP (application/json or text/event-stream); its body is not passed on`,
      { code: 'NOT_MCP', status, ...(type === '' ? {} : { contentType: type }) },
    );
  });
}
