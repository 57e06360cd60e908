/**
 * Run the reporting server: over HTTP on 127.0.0.1 (port from REPORTING_PORT, default 3002), or
 * over stdio with `--stdio`. With REDIS_URL, replicas keep their tasks in that Redis (any replica
 * serves any task); REPLICA_ID names this one in its tasks' leases (default: a random id), and
 * TASK_LEASE_MS is how long a dead replica's tasks take to end `failed` (default 30 000).
 */
import { closeOnSignals } from '@parley/server';

import { connectRedisTasks } from './redis.ts';
import { createReportingServer } from './reportingServer.ts';

const setting = (name: string): string | undefined =>
  process.env[name] === undefined || process.env[name] === '' ? undefined : process.env[name];
const redisUrl = setting('REDIS_URL');
const replicaId = setting('REPLICA_ID');
const leaseMs = setting('TASK_LEASE_MS');
const server = createReportingServer({
  serverOptions: {
    tasks: {
      ...(redisUrl !== undefined ? { store: await connectRedisTasks(redisUrl) } : {}),
      ...(replicaId !== undefined ? { replicaId } : {}),
      ...(leaseMs !== undefined ? { leaseMs: Number(leaseMs) } : {}),
    },
  },
});
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
