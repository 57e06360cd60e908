import type { AddressInfo } from 'node:net';

import { serve, type ServerType } from '@hono/node-server';

// #region hono
import { Hono } from 'hono';

import { createServer } from '../elicitation/dualEra.ts';

const mcp = createServer();

export const app = new Hono();
app.get('/health', (c) => c.text('ok'));
// Every method on /mcp (POST, the GET of a stream, DELETE): Parley answers with a web Response.
app.all('/mcp', (c) => mcp.fetch(c.req.raw));
// #endregion hono

export function listen(
  port = 3000,
): Promise<{ url: string; server: ServerType }> {
  return new Promise((resolve) => {
    // #region node
    // On Node, through @hono/node-server (Bun, Deno and Workers call app.fetch themselves).
    const server = serve(
      { fetch: app.fetch, hostname: '127.0.0.1', port },
      (info) => console.error(`Serving http://127.0.0.1:${info.port}/mcp`),
    );
    // #endregion node
    server.once('listening', () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${bound}/mcp`, server });
    });
  });
}
