import type * as NodeHttp from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * `node:http` through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno), not an import:
 * bundlers for Workers and other edge runtimes follow the fetch handler's dynamic import of
 * this module, and a static `node:*` import here would make every edge bundle need Node
 * compatibility (workerd refuses to load it without `nodejs_compat`) for code it never runs.
 */
function createServer(listener: NodeHttp.RequestListener): NodeHttp.Server {
  return process.getBuiltinModule('node:http').createServer(listener);
}

/**
 * A `node:http` server in front of a web-standard fetch handler: the request is streamed in, the
 * response (JSON or an SSE stream) is streamed out, and a client that goes away aborts the
 * request, which is how a modern client cancels a call.
 */

export interface NodeListenOptions {
  host: string;
  port: number;
  /** Only this path (and `alsoServe`) is served; everything else is a 404. */
  path: string;
  /** Other paths the handler answers, such as its OAuth metadata document. */
  alsoServe?: readonly string[];
  /** Larger bodies are refused with a 413 before they are read to the end. */
  maxBodyBytes: number;
}

export interface NodeListener {
  /** The endpoint's URL, e.g. `http://127.0.0.1:3001/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** The body as one buffer, or `undefined` past `maxBytes` (the rest is not read). */
async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A web `Request` for a node request. The body is read up front into memory (it is one JSON-RPC
 * message, bounded by `maxBodyBytes`): much cheaper than a web stream over the socket.
 */
async function toRequest(
  req: IncomingMessage,
  origin: string,
  signal: AbortSignal,
  maxBytes: number,
): Promise<Request | Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  let body: Buffer | undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    body = await readBody(req, maxBytes);
    if (body === undefined) {
      return new Response(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32600, message: 'Request body too large' },
          id: null,
        }),
        {
          status: 413,
          headers: { 'content-type': 'application/json', connection: 'close' },
        },
      );
    }
  }
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method ?? 'GET',
    headers,
    signal,
    ...(body !== undefined ? { body: body.toString('utf8') } : {}),
  });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  if (!response.headers.get('content-type')?.includes('text/event-stream')) {
    // One JSON message: write it whole rather than streaming it chunk by chunk.
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
  }
  res.end();
}

export async function listenNode(
  handle: (request: Request) => Promise<Response>,
  options: NodeListenOptions,
): Promise<NodeListener> {
  const server = createServer((req, res) => {
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    const origin = `http://${req.headers.host ?? `${options.host}:${options.port}`}`;
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const respond =
      pathname === options.path || options.alsoServe?.includes(pathname) === true
        ? toRequest(req, origin, aborter.signal, options.maxBodyBytes).then((request) =>
            request instanceof Response ? request : handle(request),
          )
        : Promise.resolve(new Response('Not Found', { status: 404 }));
    respond
      .then((response) => send(response, res))
      .catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(aborter.signal.aborted ? undefined : `Internal Server Error: ${String(error)}`);
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}${options.path}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
