/**
 * Run the dual-era server: over HTTP on 127.0.0.1 (port from DUAL_ERA_PORT, default 3003), or
 * over stdio with `--stdio`.
 */
import { createDualEraServer } from './dualEraServer.ts';

const server = createDualEraServer();
if (process.argv.includes('--stdio')) {
  await server.run({ transport: 'stdio' });
} else {
  const running = await server.run({
    transport: 'http',
    port: Number(process.env.DUAL_ERA_PORT ?? 3003),
  });
  process.stderr.write(`dual-era: serving ${running.url}\n`);
  process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
}
