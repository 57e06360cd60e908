import { checkOptionKeys, optionKeys } from '@parley/core';

import type * as NodeHttp from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import type { HttpEndpoint } from './httpEndpoint.ts';
import type { ListenerLimits } from './limits.ts';
import { createNodeHandler, pathOf, writeReply } from './nodeHandler.ts';
import { errorReply, type ErrorReply } from '../modern/errorReply.ts';

/**
 * The `node:http` server `run()` starts: the endpoint at its path, a readiness endpoint for
 * load balancers, Node's timeouts set from the options, a connection cap, answers in JSON-RPC
 * for requests Node cannot even parse, and a graceful drain on `close()`.
 */

export interface NodeListenOptions {
  host: string;
  port: number;
  /** Only this path (and `alsoServe`) is the endpoint; other paths get `404`. */
  path: string;
  /** Other paths the endpoint answers, such as its OAuth metadata document. */
  alsoServe?: readonly string[];
  /** `GET` here answers `200` while the server takes work and `503` once it drains; `false`: none. */
  readinessPath: string | false;
  limits: ListenerLimits;
}

/** Options of a graceful close. */
export interface CloseOptions {
  /**
   * How long in-flight work may take to finish. Calls waiting for a person to answer are failed
   * at once instead, so their clients can retry elsewhere. Default 10 000.
   */
  graceMs?: number;
}

export interface NodeListener {
  /** The endpoint's URL, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string;
  close(options?: CloseOptions): Promise<void>;
}

/**
 * `node:http` through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno), not an import:
 * bundlers for Workers and other edge runtimes follow the fetch handler's dynamic import of
 * this module, and a static `node:*` import here would make every edge bundle need Node
 * compatibility (workerd refuses to load it without `nodejs_compat`) for code it never runs.
 */
function createServer(
  options: NodeHttp.ServerOptions,
  listener: NodeHttp.RequestListener,
): NodeHttp.Server {
  return process.getBuiltinModule('node:http').createServer(options, listener);
}

const DEFAULT_GRACE_MS = 10_000;
const CLOSE_OPTIONS = optionKeys<CloseOptions>()(['graceMs']);
/** No request for this long after a load balancer saw the `503`: it has stopped sending. */
const SETTLE_MS = 250;
/**
 * Draining, no request for this long on any connection: whoever kept connections open has
 * stopped sending here, and the idle ones can be closed without cutting a request off.
 */
const QUIET_MS = 250;

/** Stop listening without touching open connections (`net.Server#close`, see `close`). */
function stopListening(server: NodeHttp.Server, done: () => void): void {
  process.getBuiltinModule('node:net').Server.prototype.close.call(server, done);
}

/** A raw HTTP/1.1 answer for a connection Node could not parse a request from. */
function rawAnswer(reply: ErrorReply): string {
  const body = reply.json;
  const reason = process.getBuiltinModule('node:http').STATUS_CODES[reply.status] ?? '';
  return (
    `HTTP/1.1 ${reply.status} ${reason}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Node's parse errors, as the answer they deserve. */
function clientErrorAnswer(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return rawAnswer(
        errorReply('headersTooLarge', 'Bad Request: the request headers are too large'),
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return rawAnswer(
        errorReply('requestTimeout', 'Request Timeout: the request did not arrive in time'),
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return rawAnswer(
        errorReply('invalidRequest', 'Bad Request: the request body is not framed correctly'),
      );
    default:
      return rawAnswer(
        errorReply('invalidRequest', 'Bad Request: the request is not valid HTTP/1.1'),
      );
  }
}

/**
 * A port in use is a setting to change, not a crash: one sentence that names it, keeping
 * `code: 'EADDRINUSE'` (and the original error as `cause`) for apps that check it.
 */
function listenError(
  error: NodeJS.ErrnoException,
  options: NodeListenOptions,
): NodeJS.ErrnoException {
  if (error.code !== 'EADDRINUSE') return error;
  const refused: NodeJS.ErrnoException = new Error(
    `ParleyServer: port ${options.port} on ${options.host} is in use (EADDRINUSE); pass ` +
      'another port to run({ port }) or stop what holds it.',
    { cause: error },
  );
  refused.code = 'EADDRINUSE';
  return refused;
}

export async function listenNode(
  endpoint: HttpEndpoint,
  options: NodeListenOptions,
): Promise<NodeListener> {
  const { limits } = options;
  let draining = false;
  /** Requests whose answer is not finished. */
  let inFlight = 0;
  let lastArrival = 0;
  let probed = false;
  let unreadySeen = false;
  const sockets = new Set<Socket>();
  const refused = new WeakSet<Socket>();
  const idle = new Set<() => void>();
  const finished = () => {
    inFlight--;
    if (inFlight === 0) for (const wake of idle) wake();
  };
  const handle = createNodeHandler(endpoint, { draining: () => draining, closed: finished });

  const server = createServer(
    {
      // Node enforces its timeouts on this beat: a 30 s default would let a 1 s headersTimeout
      // run for 30 s.
      connectionsCheckingInterval: Math.max(
        100,
        Math.min(30_000, Math.floor(limits.headersTimeoutMs / 2)),
      ),
      // Checked below, so the refusal is JSON-RPC like every other.
      requireHostHeader: false,
    },
    (req: IncomingMessage, res: ServerResponse) => serve(req, res),
  );
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (refused.has(req.socket)) {
      return writeReply(
        res,
        errorReply(
          'serviceUnavailable',
          'Service Unavailable: this server has as many connections as it may; try again',
          { headers: { 'retry-after': '1' } },
        ),
        true,
      );
    }
    const path = pathOf(req.url);
    if (req.headers.host === undefined && req.httpVersionMinor === 1) {
      return writeReply(
        res,
        errorReply('invalidRequest', 'Bad Request: an HTTP/1.1 request needs a Host header'),
        true,
      );
    }
    if (options.readinessPath !== false && path === options.readinessPath) {
      probed = true;
      if (draining) unreadySeen = true;
      const body = JSON.stringify({ status: draining ? 'draining' : 'ready' });
      return writeReply(res, { status: draining ? 503 : 200, json: body }, draining);
    }
    if (path !== options.path && options.alsoServe?.includes(path) !== true) {
      return writeReply(
        res,
        errorReply('methodNotFound', `Not Found: this server serves MCP at ${options.path}`),
        draining,
      );
    }
    inFlight++;
    lastArrival = Date.now();
    if (draining) res.setHeader('connection', 'close');
    void handle(req, res);
  };
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    if (sockets.size > limits.maxConnections) {
      // Its first request is answered `503`; a connection that sends none is not kept waiting.
      refused.add(socket);
      socket.setTimeout(1_000, () => socket.destroy());
    }
  });
  // `Expect: 100-continue`: a body that will not fit is refused before it is sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isSafeInteger(declared) && declared > endpoint.limits.maxBodyBytes) {
      return writeReply(
        res,
        errorReply(
          'requestTooLarge',
          `Request body too large: the limit is ${endpoint.limits.maxBodyBytes} bytes`,
        ),
        true,
      );
    }
    res.writeContinue();
    serve(req, res);
  });
  // CONNECT (a proxy's tunnel) is no request this server serves.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(rawAnswer(errorReply('methodNotAllowed', 'Method not allowed: CONNECT')));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (
      error.code === 'ECONNRESET' ||
      !socket.writable ||
      (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
    ) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorAnswer(error));
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, options));
    server.once('error', failed);
    server.listen(options.port, options.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;

  const until = (condition: () => boolean, deadline: number, step = 25) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (condition() || Date.now() >= deadline) {
          clearInterval(timer);
          idle.delete(check);
          resolve();
        }
      };
      const timer = setInterval(check, step);
      idle.add(check);
      check();
    });

  let closing: Promise<void> | undefined;
  const close = async (graceMs: number): Promise<void> => {
    const started = Date.now();
    const deadline = started + graceMs;
    draining = true;
    // Calls waiting on a person fail now, with a JSON-RPC error their clients can act on.
    endpoint.drain();
    // Readiness turns 503 first: a load balancer that checks it stops sending here, and the
    // listener stays open until it has (half the grace at most), so nothing it sent is refused.
    // Nobody ever asked for readiness: nobody is waiting to hear it.
    if (probed) {
      await until(
        () => unreadySeen && Date.now() - lastArrival >= SETTLE_MS,
        Math.min(deadline, started + graceMs / 2),
      );
    }
    // Stop accepting connections, but keep the open ones: a request a proxy is writing on an
    // idle keep-alive connection right now is answered (with `Connection: close`, after which
    // the connection closes), never cut off. (`http.Server#close` would also close the idle
    // connections at once, racing such a request; `net.Server#close` only stops listening.)
    const stopped = new Promise<void>((resolve) => stopListening(server, () => resolve()));
    // Idle connections are closed once nothing has arrived for a while: a proxy that still
    // sends here uses up its idle connections one answer at a time, then finds this replica
    // refusing new ones and sends elsewhere; only then is it quiet.
    await until(
      () =>
        inFlight === 0 &&
        (sockets.size === 0 || Date.now() - Math.max(lastArrival, started) >= QUIET_MS),
      deadline,
    );
    await endpoint.close();
    server.closeAllConnections();
    for (const socket of sockets) socket.destroy();
    // `http.Server#close` also stops its timeout checks (the listener is already closed).
    server.close(() => {});
    await stopped;
  };

  return {
    url: `http://${host}:${port}${options.path}`,
    close: (closeOptions: CloseOptions = {}) => {
      try {
        checkOptionKeys('close', 'options', closeOptions, CLOSE_OPTIONS);
      } catch (error) {
        return Promise.reject(error);
      }
      const { graceMs = DEFAULT_GRACE_MS } = closeOptions;
      if (!Number.isSafeInteger(graceMs) || graceMs < 0) {
        return Promise.reject(
          new RangeError(`close: graceMs must be a whole number >= 0 (got ${String(graceMs)}).`),
        );
      }
      closing ??= close(graceMs);
      return closing;
    },
  };
}
