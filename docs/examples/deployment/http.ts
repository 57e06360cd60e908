import type { RunningServer } from '@parley/server';

import { createServer } from '../elicitation/dualEra.ts';

export async function serve(
  port = Number(process.env.PORT ?? 3000),
): Promise<RunningServer> {
  // #region http
  const mcp = createServer();
  const running = await mcp.run({
    transport: 'http',
    host: '127.0.0.1', // loopback: Host and Origin are checked against the localhost names
    port, // 0 picks a free port
    path: '/mcp',
    sessionIdleTimeoutMs: 30 * 60_000, // handshake-era sessions (ctx.elicit over HTTP)
  });
  console.error(`Serving ${running.url}`);
  process.once('SIGTERM', () => void running.close());
  // #endregion http
  return running;
}

export async function serveEverywhere(): Promise<RunningServer> {
  // #region public
  // Behind a proxy or on every interface, name the hosts clients use (DNS-rebinding protection).
  return createServer().run({
    transport: 'http',
    host: '0.0.0.0',
    port: 3000,
    allowedHosts: ['mcp.example.com'],
  });
  // #endregion public
}
