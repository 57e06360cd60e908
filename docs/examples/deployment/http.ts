import { closeOnSignals, type RunningServer } from '@parley/server';

import { createServer } from '../elicitation/dualEra.ts';

export async function serve(
  port = Number(process.env.PORT ?? 3000),
): Promise<{ running: RunningServer; forgetSignals: () => void }> {
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
  // SIGTERM/SIGINT: /ready turns 503, in-flight calls finish, then the process exits.
  // (It returns a function that removes the handlers again.)
  const forgetSignals = closeOnSignals(running, { graceMs: 10_000 });
  // #endregion http
  return { running, forgetSignals };
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

export async function serveBehindProxy(): Promise<RunningServer> {
  // #region proxy
  return createServer().run({
    transport: 'http',
    host: '10.0.0.5', // only the proxy reaches this address: the header it sets can be believed
    port: 3000,
    allowedHosts: ['mcp.example.com'],
    // Sessions per client count by this header's address; of a list, its last entry.
    clientAddressHeader: 'x-forwarded-for',
  });
  // #endregion proxy
}
