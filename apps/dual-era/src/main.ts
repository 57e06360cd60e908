/**
 * Run the dual-era server: over HTTP on 127.0.0.1 (port from DUAL_ERA_PORT, default 3003), or
 * over stdio with `--stdio`.
 */
import { closeOnSignals } from '@parley/server';

import { createDualEraServer } from './dualEraServer.ts';

const server = createDualEraServer();
if (process.argv.includes('--stdio')) {
  await server.run({ transport: 'stdio' });
} else {
  const port = Number(process.env.DUAL_ERA_PORT ?? 3003);
  const running = await server.run({ transport: 'http', port }).catch((error: unknown) => {
    // A port in use is a setting to change, not a crash: one line that says which.
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    process.stderr.write(`dual-era: port ${port} is in use; set DUAL_ERA_PORT to a free port\n`);
    process.exit(1);
  });
  process.stderr.write(`dual-era: serving ${running.url}\n`);
  // SIGTERM or SIGINT: drain (readiness 503, in-flight calls finish), then exit.
  closeOnSignals(running);
}
