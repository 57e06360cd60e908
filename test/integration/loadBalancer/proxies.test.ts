import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { startRedisServer, type RedisServer } from '../../../scripts/redisServer.ts';
import { Clients, loop, newFigures } from './flows.ts';
import {
  bundleApp,
  drainReplica,
  caddyBinary,
  freePort,
  missingBinaries,
  nginxBinary,
  redisBinary,
  sleep,
  startApp,
  startCaddy,
  startNginx,
  versionOf,
  type Proxy,
  stopProcess,
} from './harness.ts';

/**
 * Three replicas of apps/booking (real processes on 127.0.0.1, sharing one Redis and a key
 * ring) behind real nginx and real Caddy, each running the deployment guide's configuration
 * (docs/examples/deployment/nginx.conf, Caddyfile). While modern flows (round robin) and
 * handshake-era flows (routed to their replica by the session id's prefix) run, every replica is restarted gracefully
 * (SIGTERM), one at a time, twice over. A modern flow must never fail: a request a proxy writes
 * on an idle keep-alive connection as the replica begins to drain is answered, and one the
 * replica could not answer the proxy resends. A handshake-era flow either completes or gets a
 * JSON-RPC error at once (its session ended with its replica), then books on a new session:
 * never a hang, never a 502.
 */

const KEY = 'proxied-fleet-key-000000000000000000000';

interface Balancer {
  name: string;
  binary: string | undefined;
  need: 'nginx' | 'caddy';
  start: (dir: string, replicas: number[]) => Promise<Proxy>;
  version: () => string;
  /** Whether handshake-era clients run too (the common nginx configuration is for modern ones). */
  handshake: boolean;
}

/**
 * The configuration most nginx deployments start from: retries on connection errors only,
 * never of a POST nginx has sent. Against it, the replica's drain alone must keep every modern
 * flow whole: a request on an idle keep-alive connection is answered, never cut.
 */
const commonNginx = (config: string) =>
  config.replace(
    'proxy_next_upstream error timeout http_503 non_idempotent;',
    'proxy_next_upstream error timeout;',
  );

const balancers: Balancer[] = [
  {
    name: 'nginx',
    binary: nginxBinary,
    need: 'nginx',
    start: (dir, replicas) => startNginx(dir, replicas),
    version: () => versionOf(nginxBinary!, ['-v']),
    handshake: true,
  },
  {
    name: 'nginx, the common configuration (no non_idempotent retries)',
    binary: nginxBinary,
    need: 'nginx',
    start: (dir, replicas) => startNginx(dir, replicas, commonNginx),
    version: () => versionOf(nginxBinary!, ['-v']),
    handshake: false,
  },
  {
    name: 'Caddy',
    binary: caddyBinary,
    need: 'caddy',
    start: startCaddy,
    version: () => versionOf(caddyBinary!, ['version']),
    handshake: true,
  },
];

describe.each(balancers)('three replicas behind $name', (balancer) => {
  const missing = missingBinaries(`${balancer.name} rolling-restart test`, [
    balancer.need,
    'redis-server',
  ]);
  const dir = mkdtempSync(join(tmpdir(), `parley-${balancer.need}-`));
  let redis: RedisServer;
  let proxy: Proxy;
  let bookingMain: string;
  const ports: number[] = [];
  const replicas: (ChildProcess | undefined)[] = [];
  const drains: number[] = [];
  const tracing = process.env.LB_TRACE === '1';
  const t0 = Date.now();
  const trace = (line: string) =>
    tracing && console.error(`[${balancer.need} +${Date.now() - t0} ms] ${line}`);
  const clients = new Clients(newFigures(), trace);

  async function startReplica(i: number): Promise<void> {
    replicas[i] = await startApp(
      bookingMain,
      {
        BOOKING_PORT: String(ports[i]),
        REQUEST_STATE_KEY: KEY,
        // The guide's configurations route a session by its id's prefix: booking1. is port 1.
        SESSION_ID_PREFIX: `booking${i + 1}.`,
        REDIS_URL: redis.url,
        REPLAY_WINDOW_MS: '5000',
        ROUND_LEASE_MS: '5000',
      },
      'booking: serving',
      `replica ${i}`,
    );
  }

  /** SIGTERM (a graceful close), then the replica again on its port. */
  async function restart(i: number): Promise<void> {
    const child = replicas[i]!;
    const drained = await drainReplica(child);
    expect(drained.code).toBe(0);
    drains.push(drained.ms);
    await startReplica(i);
    trace(
      `replica ${i} restarted; flows ${clients.figures.modernFlows}/${clients.figures.handshakeFlows}`,
    );
    // The proxy takes it back: Caddy's health check, nginx after its fail_timeout.
    await sleep(2_500);
  }

  beforeAll(async () => {
    if (missing.length > 0) return;
    [redis, bookingMain] = await Promise.all([
      startRedisServer(redisBinary!),
      bundleApp('apps/booking/src/main.ts', join(dir, 'booking')),
    ]);
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    await Promise.all([0, 1, 2].map((i) => startReplica(i)));
    proxy = await balancer.start(dir, ports);
  }, 120_000);

  afterAll(async () => {
    await stopProcess(proxy?.process);
    for (const child of replicas) child?.kill('SIGKILL');
    await redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test.skipIf(missing.length > 0)(
    'rolling restarts of every replica under load: no modern flow fails, no handshake flow hangs or meets a 502',
    async () => {
      const { figures } = clients;
      let running = true;
      const load = [
        ...Array.from({ length: 4 }, () =>
          loop(
            clients,
            () => running,
            () => clients.modernFlow(proxy.url, false),
            () => figures.modernFlows++,
          ),
        ),
        ...Array.from({ length: balancer.handshake ? 2 : 0 }, () =>
          loop(
            clients,
            () => running,
            () => clients.handshakeFlow(proxy.url),
            () => figures.handshakeFlows++,
          ),
        ),
      ];
      clients.phase = 'rolling restarts';
      await sleep(1_000);
      for (let pass = 0; pass < 2; pass++) {
        for (let i = 0; i < 3; i++) await restart(i);
      }
      running = false;
      await Promise.all(load);

      console.log(
        [
          `${balancer.name} (${balancer.version()}), 3 replicas of apps/booking, one Redis: 2 × 3 rolling restarts under load:`,
          `  ${figures.modernFlows} modern + ${figures.handshakeFlows} handshake flows completed, ${figures.requests} requests`,
          `  failed requests: ${figures.failedRequests.filter((failure) => !failure.jsonRpc).length} (plus ${figures.failedRequests.filter((failure) => failure.jsonRpc).length} answered with Parley's JSON-RPC error), failed flows: ${figures.failedFlows.length}`,
          `  handshake sessions reopened after their replica closed: ${figures.sessionsReopened}, the slowest such failure arrived after ${figures.slowestSessionFailureMs} ms`,
          `  graceful closes, SIGTERM to exit: ${Math.min(...drains)}–${Math.max(...drains)} ms`,
        ].join('\n'),
      );
      expect(figures.failedFlows).toEqual([]);
      // No request failed in transport or with a proxy's own 5xx (a 502): every failure a
      // client saw was Parley's JSON-RPC error (a handshake-era session ending with its replica).
      expect(figures.failedRequests.filter((failure) => !failure.jsonRpc)).toEqual([]);
      expect(figures.modernFlows).toBeGreaterThan(50);
      if (balancer.handshake) expect(figures.handshakeFlows).toBeGreaterThan(5);
      // A session's end is told at once, never after a wait for a timeout.
      expect(figures.slowestSessionFailureMs).toBeLessThan(10_000);
    },
    300_000,
  );
});
