import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { startRedisServer, type RedisServer } from '../../../scripts/redisServer.ts';
import {
  bundleApp,
  drainReplica,
  freePort,
  haproxyBinary,
  haproxyVersion,
  missingBinaries,
  redisBinary,
  sleep,
  startApp,
  startHaproxy,
  type Balancer,
  stopProcess,
} from './harness.ts';
import { Clients, answers, newFigures } from './flows.ts';

/**
 * Three replicas of apps/booking (real processes on 127.0.0.1) behind a real HAProxy running the
 * deployment guide's configuration (docs/examples/deployment/haproxy.cfg), sharing one Redis
 * (single use of requestState, the event store) and a key ring. While modern flows (round robin)
 * and handshake-era flows (sticky on Mcp-Session-Id) run, the fleet is restarted gracefully three
 * times, one replica at a time, rotating the ring [old] → [old,new] → [new,old] → [new]. Then a
 * token spent on one replica is refused on another, and one replica is killed with SIGKILL.
 *
 * LB_TRACE=1 prints the test's steps and keeps HAProxy's request log and server state changes
 * in the temporary directory (parley-lb-haproxy.log, parley-lb-haproxy.err).
 */

const missing = missingBinaries('load-balancer test');

const OLD = 'old-key-of-the-fleet-000000000000000';
const NEW = 'new-key-of-the-fleet-111111111111111';
const figures = newFigures();
const t0 = Date.now();
const tracing = process.env.LB_TRACE === '1';
const trace = (line: string) => tracing && console.error(`[lb +${Date.now() - t0} ms] ${line}`);
const clients = new Clients(figures, trace);

describe.skipIf(missing.length > 0)('three replicas behind HAProxy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-lb-'));
  let redis: RedisServer;
  let balancer: Balancer;
  let front: string;
  const ports: number[] = [];
  const replicas: (ChildProcess | undefined)[] = [];
  const rings: string[] = [];
  /** How long each graceful close took, SIGTERM to exit. */
  const drains: number[] = [];
  let bookingMain: string;

  async function startReplica(i: number, ring: string): Promise<void> {
    replicas[i] = await startApp(
      bookingMain,
      {
        BOOKING_PORT: String(ports[i]),
        REQUEST_STATE_KEY: ring,
        REDIS_URL: redis.url,
        REPLAY_WINDOW_MS: '1500',
        ROUND_LEASE_MS: '1500',
      },
      'booking: serving',
      `replica ${i}`,
    );
    rings[i] = ring;
  }

  const upInHaproxy = (count: number) => balancer.upInHaproxy(count);

  /** SIGTERM (a graceful close), then the replica again with `ring`, and HAProxy sees it up. */
  async function restart(i: number, ring: string): Promise<void> {
    const child = replicas[i]!;
    const drained = await drainReplica(child);
    expect(drained.code).toBe(0);
    drains.push(drained.ms);
    trace(`replica ${i} closed; flows ${figures.modernFlows}/${figures.handshakeFlows}`);
    await startReplica(i, ring);
    await upInHaproxy(3);
    trace(`replica ${i} up with [${ring}]`);
  }

  beforeAll(async () => {
    [redis, bookingMain] = await Promise.all([
      startRedisServer(redisBinary!),
      bundleApp('apps/booking/src/main.ts', join(dir, 'booking')),
    ]);
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    await Promise.all([0, 1, 2].map((i) => startReplica(i, OLD)));
    balancer = await startHaproxy(dir, ports, { log: tracing });
    front = balancer.url;
    await upInHaproxy(3);
  }, 120_000);

  afterAll(async () => {
    await stopProcess(balancer?.process);
    for (const child of replicas) child?.kill('SIGKILL');
    await redis?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  test('rolling restarts with key rotation under load, single use across replicas, then SIGKILL', async () => {
    // Load: modern flows round robin, handshake flows sticky, until told to stop.
    let running = true;
    const worker = async (flow: () => Promise<string>, count: () => void) => {
      while (running) {
        try {
          expect(await flow()).toMatch(/^Booked BK-\d+: Ada Lovelace to Lisbon on 2026-09-01$/);
          count();
        } catch (error) {
          figures.failedFlows.push(`${clients.phase}: ${String(error)}`);
        }
      }
    };
    const modernLoad = (retry: boolean) =>
      Array.from({ length: 4 }, () =>
        worker(
          () => clients.modernFlow(front, retry),
          () => figures.modernFlows++,
        ),
      );
    const handshakeLoad = () =>
      Array.from({ length: 2 }, () =>
        worker(
          () => clients.handshakeFlow(front),
          () => figures.handshakeFlows++,
        ),
      );

    // 1. Three rolling restarts, one replica at a time, each rotating the ring one step.
    clients.phase = 'rolling restarts';
    const load = [...modernLoad(false), ...handshakeLoad()];
    await sleep(500);
    for (const ring of [`${OLD},${NEW}`, `${NEW},${OLD}`, NEW]) {
      for (let i = 0; i < 3; i++) await restart(i, ring);
    }
    await sleep(300);
    running = false;
    await Promise.all(load);
    const rolled = { ...figures, failedRequests: figures.failedRequests.length };
    expect(figures.failedRequests).toEqual([]);
    expect(figures.failedFlows).toEqual([]);
    expect(figures.modernFlows).toBeGreaterThan(50);
    expect(figures.handshakeFlows).toBeGreaterThan(5);
    expect(rings).toEqual([NEW, NEW, NEW]);

    // 2. Single use across replicas, through Redis: a token spent on replica 1 …
    clients.phase = 'single use';
    const direct = (i: number) => `http://127.0.0.1:${ports[i]}/mcp`;
    const asked = await clients.modernRound(direct(0), {});
    const state = asked.result!.requestState!;
    const second = {
      requestState: state,
      inputResponses: { destination: { action: 'accept', content: answers.destination } },
    };
    const spent = await clients.modernRound(direct(0), second);
    expect(spent.result?.resultType).toBe('input_required');
    // … retried on replica 2 within the replay window: the same outcome, not a second run …
    expect((await clients.modernRound(direct(1), second)).result?.inputRequests).toEqual(
      spent.result?.inputRequests,
    );
    // … and replayed on replica 3 after it: refused.
    await sleep(1_700);
    expect((await clients.modernRound(direct(2), second)).error).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });

    // 3. SIGKILL one replica under load. A round in flight on it (its body half sent) fails;
    // sent again with the same state, through the balancer, it completes on another replica.
    clients.phase = 'SIGKILL';
    const failedBefore = figures.failedRequests.length;
    running = true;
    const killLoad = modernLoad(true);
    const first = await clients.modernRound(front, {});
    const inFlight = new Promise<string>((resolve) => {
      const init = clients.roundRequest({
        requestState: first.result!.requestState!,
        inputResponses: { destination: { action: 'accept', content: answers.destination } },
      });
      const body = String(init.body);
      const socket = connect(ports[1]!, '127.0.0.1', () => {
        const headers = init.headers as Record<string, string>;
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${ports[1]}\r\n` +
            Object.entries(headers)
              .map(([name, value]) => `${name}: ${value}\r\n`)
              .join('') +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 40)}`,
        );
        setTimeout(() => replicas[1]!.kill('SIGKILL'), 300);
      });
      socket.on('error', (error: Error) => resolve(`failed: ${error.message}`));
      socket.on('close', () => resolve('closed without an answer'));
    });
    const lost = await inFlight;
    expect(lost).toMatch(/failed|closed without an answer/);
    const retried = await clients.modernRound(front, {
      requestState: first.result!.requestState!,
      inputResponses: { destination: { action: 'accept', content: answers.destination } },
    });
    expect(retried.result?.resultType).toBe('input_required');
    expect(Object.keys(retried.result?.inputRequests ?? {})).toEqual(['date']);
    await upInHaproxy(2);
    await sleep(1_000);
    running = false;
    await Promise.all(killLoad);
    expect(figures.failedFlows).toEqual([]);

    const killed = figures.failedRequests.length - failedBefore;
    console.log(
      [
        `load balancer (HAProxy ${haproxyVersion(haproxyBinary!)}, 3 replicas of apps/booking, one Redis):`,
        `  rolling restarts (3 × 3, ring [old] → [old,new] → [new,old] → [new]): ${rolled.modernFlows} modern + ${rolled.handshakeFlows} handshake flows completed, ${rolled.requests} requests, failed requests: ${rolled.failedRequests}, failed flows: 0, handshake sessions reopened after a drain: ${rolled.sessionsReopened}`,
        `  single use through Redis: spent on replica 1, same outcome on replica 2 within the window, refused on replica 3 after it`,
        `  SIGKILL: ${figures.modernFlows - rolled.modernFlows} more modern flows completed, requests failed while the replica died: ${killed}, rounds retried with the same state: ${figures.roundsRetried}, failed flows: 0; the round cut on the killed replica (${lost}) completed on another`,
        `  graceful closes, SIGTERM to exit: ${Math.min(...drains)}–${Math.max(...drains)} ms`,
        `  total: ${figures.modernFlows + figures.handshakeFlows} flows, ${figures.requests} requests`,
      ].join('\n'),
    );
  }, 300_000);
});
