import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

import { bundlePage, pageDir } from './bundle.ts';
import { DEFAULT_ANSWER_LIMITS, forward, PROXY_PATH, type AnswerLimits } from './proxy.ts';
import { isOwnHost, newStdioToken } from './stdioAccess.ts';
import { createStdioBridge, STDIO_PATH, type StdioOptions } from './stdioBridge.ts';

/**
 * The playground's HTTP server: the page (`/`, its script and style), the demo servers it offers
 * (`/config.json`), the MCP forwarder (`/mcp-proxy?target=…`) and the stdio bridge (`/stdio/…`,
 * commands the person types, started only for this page: stdioBridge.ts).
 */

/** A server the page offers in its list. */
export interface DemoServer {
  name: string;
  title: string;
  url: string;
}

export interface PlaygroundOptions {
  /** The demo servers the page lists first; any other URL can be typed in. */
  servers: DemoServer[];
  /** How long a server may take to answer, and how large a JSON answer may be. */
  forwarder?: Partial<AnswerLimits>;
  /** Where commands run, how long an idle one lives, how many may run. */
  stdio?: Partial<StdioOptions>;
}

/** Where the page's HTML receives the stdio token. */
const TOKEN_PLACEHOLDER = '{{stdio-token}}';

/** Build the page and return the server, not yet listening. */
export async function createPlayground(options: PlaygroundOptions): Promise<Server> {
  const { script, map } = await bundlePage();
  const files: Record<string, { type: string; body: string }> = {
    '/': { type: 'text/html; charset=utf-8', body: readFileSync(`${pageDir}index.html`, 'utf8') },
    '/app.js': { type: 'text/javascript; charset=utf-8', body: script },
    '/app.js.map': { type: 'application/json; charset=utf-8', body: map },
    '/style.css': {
      type: 'text/css; charset=utf-8',
      body: readFileSync(`${pageDir}style.css`, 'utf8'),
    },
    '/layout.css': {
      type: 'text/css; charset=utf-8',
      body: readFileSync(`${pageDir}layout.css`, 'utf8'),
    },
    '/config.json': {
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ servers: options.servers }),
    },
  };
  files['/index.html'] = files['/']!;
  const limits = { ...DEFAULT_ANSWER_LIMITS, ...options.forwarder };
  const token = newStdioToken();
  const bridge = createStdioBridge(token, options.stdio);

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://playground.invalid');
    if (url.pathname === PROXY_PATH) {
      forward(request, response, url, limits);
      return;
    }
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    if (url.pathname.startsWith(STDIO_PATH)) {
      bridge.handle(request, response, url, port);
      return;
    }
    const file = files[url.pathname];
    if (file === undefined || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(file === undefined ? 404 : 405, {
        'content-type': 'text/plain; charset=utf-8',
      });
      response.end(file === undefined ? 'Not found' : 'Method not allowed');
      return;
    }
    // The page gets the token only on the playground's own host: a site that rebinds its name
    // to 127.0.0.1 reads a page without one.
    const body = file.type.startsWith('text/html')
      ? file.body.replace(TOKEN_PLACEHOLDER, isOwnHost(request.headers.host, port) ? token : '')
      : file.body;
    response.writeHead(200, {
      'content-type': file.type,
      'cache-control': 'no-store',
      // No other site may frame the page and steer a click onto Connect (a command runs).
      'x-frame-options': 'DENY',
      'content-security-policy': "frame-ancestors 'none'",
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  // Stopping the server stops the commands at once: Node's 'close' would wait for their streams.
  const close = server.close.bind(server);
  server.close = (callback) => {
    bridge.closeAll('the playground stopped');
    return close(callback);
  };
  return server;
}
