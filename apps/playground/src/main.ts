/**
 * Run the playground: a page on 127.0.0.1 (port from PLAYGROUND_PORT, default 3000; 0 picks a
 * free one) that connects to any MCP server through its forwarder. The demo servers it lists
 * come from PLAYGROUND_SERVERS (a JSON array of `{ name, title, url }`, which `pnpm dev` sets to
 * the URLs its apps print), or else from the demo apps' port variables (BOOKING_PORT, …).
 * PLAYGROUND_ANSWER_TIMEOUT_MS sets how long the forwarder waits for a server's answer (15000).
 */
import { apps, playground, requestedPort } from '../../../scripts/apps.mjs';

import { createPlayground, type DemoServer } from './server.ts';

function fail(line: string): never {
  process.stderr.write(`playground: ${line}\n`);
  process.exit(1);
}

function demoServers(): DemoServer[] {
  const given = process.env.PLAYGROUND_SERVERS;
  if (given !== undefined && given !== '') {
    try {
      const servers = JSON.parse(given) as unknown;
      if (
        Array.isArray(servers) &&
        servers.every(
          (server: Partial<DemoServer> | null) =>
            typeof server?.name === 'string' &&
            typeof server.title === 'string' &&
            typeof server.url === 'string',
        )
      ) {
        return servers as DemoServer[];
      }
    } catch {
      // Reported below, with what it should be.
    }
    fail('PLAYGROUND_SERVERS is not a JSON array of { "name", "title", "url" } objects.');
  }
  // The apps' own ports; one left to the system (0) has no URL to offer.
  return apps.flatMap((app) => {
    const requested = requestedPort(app);
    return 'port' in requested && requested.port !== 0
      ? [{ name: app.name, title: app.title, url: `http://127.0.0.1:${requested.port}/mcp` }]
      : [];
  });
}

/** The forwarder's wait for a server's answer, when PLAYGROUND_ANSWER_TIMEOUT_MS sets one. */
function answerTimeout(): { timeoutMs: number } | undefined {
  const given = process.env.PLAYGROUND_ANSWER_TIMEOUT_MS;
  if (given === undefined || given === '') return undefined;
  const timeoutMs = Number(given);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) {
    fail(`PLAYGROUND_ANSWER_TIMEOUT_MS is not a positive number of milliseconds: ${given}`);
  }
  return { timeoutMs };
}

const requested = requestedPort(playground);
if ('problem' in requested) fail(requested.problem);
const { port } = requested;

const forwarder = answerTimeout();
const server = await createPlayground({
  servers: demoServers(),
  ...(forwarder === undefined ? {} : { forwarder }),
}).catch((error: unknown) =>
  fail(`the page did not build: ${error instanceof Error ? error.message : String(error)}`),
);
await new Promise<void>((resolve) => {
  server.once('error', (error: NodeJS.ErrnoException) => {
    // A port in use is a setting to change, not a crash: one line that says which.
    if (error.code === 'EADDRINUSE') {
      fail(`port ${port} is in use; set PLAYGROUND_PORT to a free port`);
    }
    fail(error.message);
  });
  server.listen(port, '127.0.0.1', resolve);
});
const address = server.address();
if (address === null || typeof address === 'string') fail('the server has no port');
process.stderr.write(`playground: serving http://127.0.0.1:${address.port}/\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    // Open event streams would hold close() forever.
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
