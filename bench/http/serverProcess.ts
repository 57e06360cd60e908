/**
 * One benchmark contender (see `contenders.ts`) as its own process, so its CPU and memory are
 * measured apart from the load generator. Prints its URL over IPC; answers `cpu` (CPU time so
 * far), `rss` (resident memory now), `memory` (heap and RSS after a full GC, which needs
 * `--expose-gc`), `profile-start` and `{ profile: file }` (a CPU profile of just the measured
 * window, written to the file), `exit`.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';

import { KEY, bare, parley, parleyAsk, sdk, sdkSessions } from './contenders.ts';
import { limit } from './limit.ts';
import { recordTelemetry } from './telemetry.ts';

async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const kind = process.argv[2];
const listeners: Record<string, () => RequestListener> = {
  bare,
  limit: () => limit(KEY),
  sdk,
  sdkSessions,
};
const servers = {
  parley: () => parley(),
  'parley-ask': parleyAsk,
  'parley-off': () => parley({ telemetry: false }),
  'parley-otel': () => (recordTelemetry(), parley()),
};
const server = servers[kind as keyof typeof servers];
// Every session of a benchmark comes from this one address.
const bounds = { maxSessions: 100_000, maxSessionsPerClient: 100_000 };
const url =
  server !== undefined
    ? ((await server().run({ transport: 'http', port: 0, ...bounds })).url as string)
    : await listen((listeners[kind as string] as () => RequestListener)());

let inspector: Session | undefined;
process.on('message', (message: string | { profile: string }) => {
  void (async () => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (message === 'rss') process.send?.({ rss: process.memoryUsage.rss() });
    if (message === 'memory') {
      for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.();
      const { heapUsed, rss } = process.memoryUsage();
      process.send?.({ memory: { heapUsed, rss } });
    }
    if (message === 'profile-start') {
      inspector = new Session();
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
      process.send?.({ profiling: true });
    }
    if (typeof message === 'object' && 'profile' in message && inspector !== undefined) {
      const { profile } = await inspector.post('Profiler.stop');
      writeFileSync(message.profile, JSON.stringify(profile));
      inspector.disconnect();
      process.send?.({ profiled: message.profile });
    }
    if (message === 'exit') process.exit(0);
  })();
});
process.send?.({ url });
