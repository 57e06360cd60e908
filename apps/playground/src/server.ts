import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

import { bundlePage, pageDir } from './bundle.ts';
import { DEFAULT_ANSWER_LIMITS, forward, PROXY_PATH, type AnswerLimits } from './proxy.ts';

/**
 * The playground's HTTP server: the page (`/`, its script and style), the demo servers it offers
 * (`/config.json`), and the MCP forwarder (`/mcp-proxy?target=…`).
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
}

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
    '/config.json': {
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({ servers: options.servers }),
    },
  };
  files['/index.html'] = files['/']!;
  const limits = { ...DEFAULT_ANSWER_LIMITS, ...options.forwarder };

  return createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://playground.invalid');
    if (url.pathname === PROXY_PATH) {
      forward(request, response, url, limits);
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
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  });
}
