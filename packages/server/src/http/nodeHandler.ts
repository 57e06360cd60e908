import type { IncomingMessage, ServerResponse } from 'node:http';

import type { HeaderReader } from '../modern/headers.ts';
import { readNodeBody } from './bodyReader.ts';
import type { HttpEndpoint } from './httpEndpoint.ts';
import { unreadableReply } from './inboundChecks.ts';
import { SSE_HEADERS, type EventSink, type Inbound, type Reply, type Responder } from './wire.ts';

/**
 * `node:http` straight into the endpoint: the body is read as one buffer, the answer written
 * with one `res.end`, or as SSE events with `res.write`. No web `Request` or `Response` is made
 * for either era; what needs a `Request` (a host's `verifyToken`) gets one built on demand.
 */

/** A `(req, res)` handler, as Express, Fastify (`reply.raw`) and `node:http` call it. */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  /** A body the host already parsed (Fastify's `request.body`); a function (Express' `next`) is ignored. */
  parsedBody?: unknown,
) => Promise<void>;

export interface NodeHandlerOptions {
  /** `true` while the server drains: answers then carry `Connection: close`. */
  draining?: () => boolean;
  /**
   * Hears each response close, finished or not (one listener per response for both: `emit`
   * copies the listener array when there are several).
   */
  closed?: () => void;
}

const METHODS_WITH_BODY: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** The path of a request target (origin-form or absolute-form), without its query; never throws. */
export function pathOf(target: string | undefined): string {
  if (target === undefined || target.length === 0) return '/';
  let path = target;
  if (!path.startsWith('/')) {
    // absolute-form (`http://host/path`), or something that is not a path at all
    const scheme = path.indexOf('://');
    if (scheme < 0) return path === '*' ? '*' : '/';
    const slash = path.indexOf('/', scheme + 3);
    path = slash < 0 ? '/' : path.slice(slash);
  }
  const end = path.search(/[?#]/);
  return end < 0 ? path : path.slice(0, end);
}

/** The origin a request names, usable in a URL: its `Host` when that is a host, else localhost. */
function originOf(req: IncomingMessage): string {
  const host = req.headers.host;
  if (host !== undefined && /^[A-Za-z0-9.\-:[\]]+$/.test(host) && URL.canParse(`http://${host}`)) {
    return `http://${host}`;
  }
  return 'http://localhost';
}

/** The request as a web `Request` (headers only: the body has been read already). */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // A header the fetch API refuses to carry is not one the SDK needs.
    }
  }
  const origin = originOf(req);
  const path = pathOf(req.url);
  const url = URL.canParse(`${origin}${path}`) ? `${origin}${path}` : `${origin}/`;
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    signal,
  });
}

function preParsed(req: IncomingMessage, given: unknown): Inbound['body'] {
  if (given !== undefined && typeof given !== 'function') return asBody(given);
  // A body parser (Express' `express.json()`) consumed the stream and left the result.
  const body = (req as { body?: unknown }).body;
  if (body !== undefined && (req.readableEnded || (req as { _body?: unknown })._body === true)) {
    return asBody(body);
  }
  return undefined;
}

function asBody(value: unknown): Inbound['body'] {
  if (typeof value === 'string') return { text: value };
  if (Buffer.isBuffer(value)) return { text: value.toString('utf8') };
  return { parsed: value };
}

/** Write a whole answer (`close`: with `Connection: close`); after headers went out, just end. */
export function writeReply(res: ServerResponse, reply: Reply, close: boolean): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.json !== undefined) headers['content-type'] = 'application/json';
  if (close) headers.connection = 'close';
  if (reply.json === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  headers['content-length'] = String(Buffer.byteLength(reply.json));
  res.writeHead(reply.status, headers);
  res.end(reply.json);
}

/**
 * Write a web `Response` (an SDK stream, say), cancelling it if the client goes away. A pump of
 * callbacks, not an async loop: a stream held open for minutes (a call waiting on its user)
 * holds no suspended frame.
 */
function pipeResponse(res: ServerResponse, response: Response, close: boolean): void {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  if (close) headers.connection = 'close';
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const stream = headers['content-type']?.startsWith('text/event-stream') === true;
  // A stream's headers go out now: the client is waiting for them before the first event.
  if (stream) res.flushHeaders();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  res.once('close', cancel);
  let finished = false;
  // The stream ended, failed or was cancelled: end what was sent.
  const finish = () => {
    if (finished) return;
    finished = true;
    res.off('close', cancel);
    res.end();
  };
  const resume = () => {
    res.off('drain', resume);
    res.off('close', resume);
    pump();
  };
  const pump = (): void => {
    reader
      .read()
      .then(({ done, value }) => {
        if (done || res.destroyed) return finish();
        if (res.write(value)) return pump();
        res.once('drain', resume);
        res.once('close', resume);
      })
      .catch(finish);
  };
  pump();
}

/**
 * One request as the endpoint sees it. A class, not an object literal: a literal with a getter
 * (the lazy `signal`) is built slowly and lands in dictionary mode, and this is made for every
 * request. The abort signal is made when first read: an `AbortController` per request is a
 * measurable share of a modern round, and most rounds never look at their signal.
 */
class NodeInbound implements Inbound {
  readonly method: string;
  readonly headers: NodeHeaders;
  body: Inbound['body'] = undefined;
  readonly #req: IncomingMessage;
  #controller: AbortController | undefined;
  #gone = false;
  #request: Request | undefined;

  constructor(req: IncomingMessage, method: string) {
    this.#req = req;
    this.method = method;
    this.headers = new NodeHeaders(req.headers);
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#gone) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** The client went away before its answer was written. */
  abort(): void {
    this.#gone = true;
    this.#controller?.abort();
  }

  toRequest(): Request {
    return (this.#request ??= toRequest(this.#req, this.signal));
  }

  get clientAddress(): string | undefined {
    return this.#req.socket?.remoteAddress;
  }
}

/**
 * The answer to one request, on Node's response. One object per request with its methods on the
 * prototype (not a closure per method): this is made for every request.
 */
class NodeResponder implements Responder {
  readonly #res: ServerResponse;
  readonly #draining: () => boolean;

  constructor(res: ServerResponse, draining: () => boolean) {
    this.#res = res;
    this.#draining = draining;
  }

  /** True when the answer must close the connection (the server drains, or it was asked to). */
  closing(): boolean {
    return this.#draining() || this.#res.getHeader('connection') === 'close';
  }

  send(reply: Reply): void {
    writeReply(this.#res, reply, this.closing());
  }

  web(response: Response): void {
    pipeResponse(this.#res, response, this.closing());
  }

  events(headers?: Record<string, string>, gone?: () => void): EventSink {
    const res = this.#res;
    // `on`: a response closes once, and `once` would wrap the listener in another object.
    if (gone !== undefined) res.on('close', gone);
    res.writeHead(200, {
      ...SSE_HEADERS,
      ...headers,
      ...(this.closing() ? { connection: 'close' } : {}),
    });
    res.flushHeaders();
    return new NodeEventSink(res);
  }
}

/**
 * An SSE answer on Node's response. A class, not an object of closures: a handshake session's
 * stream is held for as long as its call waits on the user.
 */
class NodeEventSink implements EventSink {
  readonly #res: ServerResponse;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  write(text: string): void {
    if (!this.#res.destroyed) this.#res.write(text);
  }

  end(): void {
    this.#res.end();
  }
}

export function createNodeHandler(
  endpoint: HttpEndpoint,
  options: NodeHandlerOptions = {},
): NodeHandler {
  const draining = options.draining ?? (() => false);
  const { closed } = options;
  const { maxBodyBytes } = endpoint.limits;
  // Not a static import: the fetch handler's module graph (edge bundles) must name no `node:*`.
  const { isUtf8 } = process.getBuiltinModule('node:buffer');
  return async (req, res, parsedBody) => {
    const method = req.method ?? 'GET';
    const inbound = new NodeInbound(req, method);
    // `on`, not `once`: a response closes once, and `once` wraps its listener anew every time.
    res.on('close', () => {
      if (!res.writableFinished) inbound.abort();
      closed?.();
    });
    const responder = new NodeResponder(res, draining);
    let body = preParsed(req, parsedBody);
    if (body === undefined && METHODS_WITH_BODY.has(method)) {
      const read = await readNodeBody(req, maxBodyBytes, endpoint.budget);
      if (read.kind !== 'body') {
        return writeReply(
          res,
          unreadableReply(read, maxBodyBytes),
          responder.closing() || read.kind === 'too-large',
        );
      }
      // The bytes were held while they arrived; decoded, they are the request's own.
      endpoint.budget.give(read.bytes.byteLength);
      if (!isUtf8(read.bytes)) {
        return writeReply(
          res,
          unreadableReply(
            { kind: 'unreadable', reason: 'the body is not valid UTF-8' },
            maxBodyBytes,
          ),
          responder.closing(),
        );
      }
      body = { text: read.bytes.toString('utf8') };
    }
    inbound.body = body;
    await endpoint.serve(inbound, responder);
  };
}

/**
 * Node's request headers as a reader. Node keeps their names in lower case, and so does every
 * caller (the `HeaderReader` contract): no name is lower-cased here, on every read of every
 * request.
 */
export class NodeHeaders implements HeaderReader {
  readonly #headers: Record<string, string | string[] | undefined>;

  constructor(headers: Record<string, string | string[] | undefined>) {
    this.#headers = headers;
  }

  get(name: string): string | null {
    const value = this.#headers[name];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}
