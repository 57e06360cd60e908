import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * The playground's MCP forwarder: the page sends every MCP request to
 * `/mcp-proxy?target=<url>` on its own origin, and this sends it on to the server, so the page
 * reaches any MCP server without that server allowing cross-origin requests. Bodies go through
 * as they are, the protocol's headers both ways, and responses stream back chunk by chunk (an
 * SSE stream of a handshake-era call carries the server's questions while the call runs).
 */

export const PROXY_PATH = '/mcp-proxy';

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

/** Response headers about this one connection, not the response. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-connection',
  'set-cookie',
]);

const METHODS = new Set(['GET', 'POST', 'DELETE']);

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

/** The server the page wants to reach, or why `target` does not name one. */
export function proxyTarget(url: URL): { target: URL } | { problem: string } {
  const target = url.searchParams.get('target');
  if (target === null || target === '') {
    return { problem: 'the target query parameter is missing: /mcp-proxy?target=<http(s) URL>' };
  }
  if (!URL.canParse(target))
    return { problem: `the target ${JSON.stringify(target)} is not a URL` };
  const parsed = new URL(target);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      problem: `the target ${JSON.stringify(target)} is not an http(s) URL (${parsed.protocol} is not forwarded)`,
    };
  }
  return { target: parsed };
}

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

/** Host names that only this machine reaches: the forwarder answers to no other. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Why a request may not use the forwarder, or `undefined` when it came from the playground's
 * own page. The forwarder reaches any address this machine can, so another site open in the
 * same browser must not drive it: a form posted from elsewhere carries another `Origin` (or
 * `Sec-Fetch-Site: cross-site`), and a page that rebinds its own domain name to 127.0.0.1 still
 * sends its own name as `Host`.
 */
export function crossSiteProblem(request: IncomingMessage): string | undefined {
  const host = request.headers.host ?? '';
  const hostname = host.replace(/:\d+$/, '');
  if (!LOOPBACK_HOSTS.has(hostname)) {
    return `the forwarder answers only on 127.0.0.1, localhost or [::1], not ${JSON.stringify(host)}`;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) {
    return `the forwarder answers only the playground's own page (http://${host}), not ${origin}`;
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `the forwarder answers only the playground's own page, not a ${site} request`;
  }
  return undefined;
}

/**
 * Forward one request of the page to the target it names, streaming both ways: node:http
 * rather than `fetch`, whose body timeout would cut an event stream that stays quiet while a
 * person thinks. Never throws; a failure is a JSON error or, once the response has begun, a
 * closed connection.
 */
export function forward(request: IncomingMessage, response: ServerResponse, url: URL): void {
  const method = request.method ?? 'GET';
  if (!METHODS.has(method)) {
    response.setHeader('allow', [...METHODS].join(', '));
    sendJson(response, 405, { error: `${method} is not forwarded: only GET, POST and DELETE` });
    return;
  }
  const refused = crossSiteProblem(request);
  if (refused !== undefined) {
    sendJson(response, 403, { error: refused });
    return;
  }
  const found = proxyTarget(url);
  if ('problem' in found) {
    sendJson(response, 400, { error: found.problem });
    return;
  }
  const { target } = found;
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send(target, {
    method,
    headers: pick(
      request.headers,
      (name) => name.startsWith('mcp-') || FORWARDED_REQUEST_HEADERS.has(name),
    ),
  });
  upstream.on('response', (answer) => {
    // Events must reach the page as they come, not when some buffer fills.
    response.writeHead(answer.statusCode ?? 502, {
      ...pick(answer.headers, (name) => !HOP_BY_HOP.has(name)),
      'x-accel-buffering': 'no',
    });
    response.flushHeaders();
    response.socket?.setNoDelay(true);
    answer.on('error', () => response.destroy());
    answer.pipe(response);
  });
  upstream.on('error', (error) => {
    if (response.headersSent || response.destroyed) {
      response.destroy();
      return;
    }
    sendJson(response, 502, {
      error: `could not reach ${target.href}: ${reason(error)}`,
      target: target.href,
    });
  });
  // The page went away (a closed event stream, a reload): stop the request upstream too.
  response.once('close', () => upstream.destroy());
  request.pipe(upstream);
}
