/**
 * Run the reporting server: over HTTP on 127.0.0.1 (port from REPORTING_PORT, default 3002), or
 * over stdio with `--stdio`.
 */
import { closeOnSignals } from '@parley/server';

import { createReportingServer } from './reportingServer.ts';

const server = createReportingServer();
if (process.argv.includes('--stdio')) {
  await server.run({ transport: 'stdio' });
} else {
  const port = Number(process.env.REPORTING_PORT ?? 3002);
  const running = await server.run({ transport: 'http', port }).catch((error: unknown) => {
    // A port in use is a setting to change, not a crash: one line that says which.
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    process.stderr.write(`reporting: port ${port} is in use; set REPORTING_PORT to a free port\n`);
    process.exit(1);
  });
  process.stderr.write(`reporting: serving ${running.url}\n`);
  // SIGTERM or SIGINT: drain (readiness 503, in-flight calls finish), then exit.
  closeOnSignals(running);
}
