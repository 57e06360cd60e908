import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';

import { crossSiteProblem, notPageFetchProblem, proxyTarget } from './proxyAccess.ts';
import { relayAnswer, sendJsonError, type AnswerLimits } from './proxyAnswer.ts';

export type { AnswerLimits } from './proxyAnswer.ts';

/**
 * The playground's MCP forwarder: the page sends every MCP request to
 * `/mcp-proxy?target=<url>` on its own origin, and this sends it on to the server, so the page
 * reaches any MCP server without that server allowing cross-origin requests. Bodies go through
 * as they are, the protocol's headers both ways, and event streams back chunk by chunk (an SSE
 * stream of a handshake-era call carries the server's questions while the call runs). What the
 * forwarder refuses, so that no server can turn it against the person: proxyAccess.ts (who may
 * use it) and proxyAnswer.ts (what of an answer reaches the page).
 */

export const PROXY_PATH = '/mcp-proxy';

/** The default limits: a server answers within 15 s, and a JSON answer is at most 16 MiB. */
export const DEFAULT_ANSWER_LIMITS: AnswerLimits = {
  timeoutMs: 15_000,
  maxBodyBytes: 16 * 1024 * 1024,
};

/** Request headers the MCP transport uses: everything `mcp-*`, and these. */
const FORWARDED_REQUEST_HEADERS = new Set([
  'accept',
  'content-type',
  'content-length',
  'authorization',
  'last-event-id',
  'traceparent',
  'tracestate',
  'baggage',
]);

const METHODS = new Set(['GET', 'POST', 'DELETE']);

function pick(headers: IncomingHttpHeaders, keep: (name: string) => boolean): OutgoingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([name, value]) => value !== undefined && keep(name)),
  );
}

/** Why the request failed, in words: the system's error code when there is one. */
function reason(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : error.message;
}

/** Why the page may not have this forwarded, as a status and a sentence, or `undefined`. */
function refusal(
  request: IncomingMessage,
  url: URL,
): { status: number; error: string; allow?: string } | { target: URL } {
  const method = request.method ?? 'GET';
  if (!METHODS.has(method)) {
    return {
      status: 405,
      error: `${method} is not forwarded: only GET, POST and DELETE`,
      allow: [...METHODS].join(', '),
    };
  }
  const problem = crossSiteProblem(request) ?? notPageFetchProblem(request);
  if (problem !== undefined) return { status: 403, error: problem };
  const found = proxyTarget(url);
  return 'problem' in found ? { status: 400, error: found.problem } : found;
}

/**
 * Forward one request of the page to the target it names: node:http rather than `fetch`,
 * whose body timeout would cut an event stream that stays quiet while a person thinks. Never
 * throws; a failure is a JSON error or, once the response has begun, a closed connection.
 */
export function forward(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  limits: AnswerLimits = DEFAULT_ANSWER_LIMITS,
): void {
  // A page gone mid-answer makes writes fail: that is the page's business, not a crash.
  response.on('error', () => response.destroy());
  try {
    send(request, response, url, limits);
  } catch (error) {
    sendJsonError(response, 502, `the forwarder failed: ${reason(error as Error)}`, {
      code: 'FORWARDER_FAILED',
    });
  }
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  limits: AnswerLimits,
): void {
  const checked = refusal(request, url);
  if (!('target' in checked)) {
    if (checked.allow !== undefined) response.setHeader('allow', checked.allow);
    sendJsonError(response, checked.status, checked.error);
    return;
  }
  const { target } = checked;
  const upstream = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
    method: request.method,
    // A connection per request: none is reused after a server ended it, or left bytes on it.
    agent: false,
    headers: pick(
      request.headers,
      (name) => name.startsWith('mcp-') || FORWARDED_REQUEST_HEADERS.has(name),
    ),
  });
  // Connecting and answering have a deadline; an event stream, once begun, has none.
  const deadline = setTimeout(() => {
    upstream.destroy();
    sendJsonError(response, 504, `${target.href} did not answer within ${limits.timeoutMs} ms`, {
      code: 'ETIMEDOUT',
      timeoutMs: limits.timeoutMs,
    });
  }, limits.timeoutMs);
  const answered = () => clearTimeout(deadline);
  upstream.on('response', (answer) => {
    answered();
    try {
      relayAnswer(answer, response, limits);
    } catch (error) {
      answer.destroy();
      sendJsonError(
        response,
        502,
        `the server's answer could not be relayed: ${reason(error as Error)}`,
        { code: 'RELAY_FAILED' },
      );
    }
  });
  // Only asked-for upgrades are answered 101, and the forwarder asks for none.
  upstream.on('upgrade', (_answer, socket) => {
    answered();
    socket.destroy();
    sendJsonError(
      response,
      502,
      'the server answered 101 Switching Protocols (an upgrade), which is not MCP over HTTP',
      { code: 'NOT_MCP', status: 101 },
    );
  });
  upstream.on('error', (error) => {
    answered();
    sendJsonError(response, 502, `could not reach ${target.href}: ${reason(error)}`, {
      code: (error as NodeJS.ErrnoException).code ?? 'UNREACHABLE',
    });
  });
  // The page went away (a closed event stream, a reload): stop the request upstream too.
  response.once('close', () => {
    answered();
    upstream.destroy();
  });
  request.on('error', () => upstream.destroy());
  request.pipe(upstream);
}
