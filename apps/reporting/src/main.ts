/**
 * Run the reporting server: over HTTP on 127.0.0.1 (port from REPORTING_PORT, default 3002), or
 * over stdio with `--stdio`.
 */
import { createReportingServer } from './reportingServer.ts';

const server = createReportingServer();
if (process.argv.includes('--stdio')) {
  await server.run({ transport: 'stdio' });
} else {
  const running = await server.run({
    transport: 'http',
    port: Number(process.env.REPORTING_PORT ?? 3002),
  });
  process.stderr.write(`reporting: serving ${running.url}\n`);
  process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
}
