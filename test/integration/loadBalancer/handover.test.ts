import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ParleyClient } from '@parley/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { startRedisServer, type RedisServer } from '../../../scripts/redisServer.ts';
import { answers, BOOKED, Clients, newFigures } from './flows.ts';
import {
  bundleApp,
  drainReplica,
  freePort,
  missingBinaries,
  redisBinary,
  sleep,
  startApp,
  startHaproxy,
  stopProcess,
  type Balancer,
} from './harness.ts';

/**
 * Handshake-era flows that outlive their replica: three replicas of apps/booking (real
 * processes) behind a real HAProxy on the deployment guide's configuration, sharing one Redis
 * (single use, the event store, the session store). Persons answer slowly (a few seconds per
 * question here, for the suite's sake). Half the clients are the SDK v2 client, as hosts use it,
 * half `@parley/client`, both in the handshake era with their default reconnection.
 *
 * 1. A rolling restart, one replica at a time (SIGTERM, the graceful close, the replica again),
 *    while every flow is waiting on a person: each flow completes on its first attempt, nobody
 *    is asked a question twice, and flows did move (their questions were answered through
 *    another replica than the one that asked).
 * 2. SIGKILL of the replica that holds waiting flows: they complete on another within seconds,
 *    again without a question asked twice.
 *
 * LB_TRACE=1 prints the steps.
 */

const missing = missingBinaries('handover test');
/**
 * The persons of the rolling restart: how many of each era, and how long each thinks per
 * question (ms, `min-max`). The suite's are quick; the measurement is
 * `HANDOVER_PEOPLE=30 HANDOVER_THINK=15000-40000`.
 */
const PEOPLE = Number(process.env.HANDOVER_PEOPLE ?? 12);
const [THINK_MIN, THINK_MAX] = (process.env.HANDOVER_THINK ?? '2000-4000')
  .split('-')
  .map(Number) as [number, number];
const RING = 'key-of-the-fleet-handover-00000000000';
const t0 = Date.now();
/** How long a client waits for a call: three of the slowest answers, and then some. */
const CALL_TIMEOUT_MS = 3 * THINK_MAX + 60_000;
const trace = (line: string) =>
  process.env.LB_TRACE === '1' && console.error(`[handover +${Date.now() - t0} ms] ${line}`);

/** One flow as the person lived it. */
interface Flow {
  asked: string[];
  /** The replicas whose responses the flow's requests got (HAProxy's `x-served-by`). */
  servedBy: Set<string>;
  /** How often the client resumed its call's stream (`Last-Event-ID`) and got it back. */
  resumed: number;
  result?: string;
  error?: string;
  /** When the flow ended, ms since the test began. */
  endedAt?: number;
}

const keyOf = (message: string) =>
  message.startsWith('Where') ? 'destination' : message.startsWith('When') ? 'date' : 'passenger';

/**
 * One handshake-era book_flight flow through `url`, its person taking `think(question)` ms
 * before each answer. Never retried from the start: what counts is the first attempt.
 */
async function personFlow(
  url: string,
  think: (message: string) => Promise<void>,
  kind: 'sdk' | 'parley' = 'sdk',
): Promise<Flow> {
  if (kind === 'parley') return parleyPersonFlow(url, think);
  const flow: Flow = { asked: [], servedBy: new Set(), resumed: 0 };
  const client = new Client(
    { name: 'slow-person', version: '1' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.onerror = () => {};
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = String(request.params.message);
    flow.asked.push(message);
    await think(message);
    return { action: 'accept', content: answers[keyOf(message)] as never };
  });
  const fetchVia = watchedFetch(flow);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    // The SDK's default reconnection (two attempts, the server's `retry` apart).
    fetch: fetchVia as typeof fetch,
  });
  try {
    await client.connect(transport);
    // Longer than three of the slowest person's answers (the SDK's default is 60 s).
    const result = await client.callTool(
      { name: 'book_flight', arguments: {} },
      { timeout: CALL_TIMEOUT_MS },
    );
    flow.result = (result.content as { text: string }[])[0]?.text ?? '';
  } catch (error) {
    flow.error = String(error);
  } finally {
    flow.endedAt = Date.now() - t0;
    await transport.terminateSession().catch(() => {});
    await client.close().catch(() => {});
  }
  return flow;
}

/** A fetch that notes, for `flow`, which replica answered and when its stream was resumed. */
function watchedFetch(flow: Flow) {
  return async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const by = response.headers.get('x-served-by');
    if (by !== null) flow.servedBy.add(by);
    if (request.headers.has('last-event-id') && response.ok) flow.resumed++;
    return response;
  };
}

/** The same flow, with `@parley/client` in the handshake era (its defaults, as users run it). */
async function parleyPersonFlow(
  url: string,
  think: (message: string) => Promise<void>,
): Promise<Flow> {
  const flow: Flow = { asked: [], servedBy: new Set(), resumed: 0 };
  const client = new ParleyClient(url, {
    mode: 'handshake',
    fetch: watchedFetch(flow),
    timeoutMs: CALL_TIMEOUT_MS,
    elicitationHandler: async (message, respond) => {
      flow.asked.push(message);
      await think(message);
      return respond(answers[keyOf(message)] as never);
    },
  });
  try {
    await client.connect();
    const result = await client.callTool('book_flight');
    flow.result = (result.content as { text: string }[])[0]?.text ?? '';
  } catch (error) {
    flow.error = String(error);
  } finally {
    flow.endedAt = Date.now() - t0;
    await client.close().catch(() => {});
  }
  return flow;
}

/**
 * One modern-era book_flight flow through `url`: each round answered after the person thought,
 * a round that failed in transport (a replica that stopped under it) sent again with the same
 * state, as modern clients do. Never started over.
 */
async function modernPersonFlow(url: string, think: () => Promise<void>): Promise<string> {
  const clients = new Clients(newFigures());
  let round: { inputResponses?: unknown; requestState?: string } = {};
  for (let n = 0; n < 4; n++) {
    let reply: Awaited<ReturnType<Clients['modernRound']>> | undefined;
    for (let attempt = 0; reply === undefined; attempt++) {
      try {
        reply = await clients.modernRound(url, round);
      } catch (error) {
        if (attempt >= 10) return `round ${n + 1} failed: ${String(error)}`;
        await sleep(200);
      }
    }
    const result = reply.result;
    if (result === undefined) return `round ${n + 1}: ${reply.error?.message}`;
    if (result.resultType !== 'input_required') return result.content?.[0]?.text ?? '';
    await think();
    round = {
      requestState: result.requestState,
      inputResponses: Object.fromEntries(
        Object.keys(result.inputRequests ?? {}).map((key) => [
          key,
          { action: 'accept', content: answers[key] },
        ]),
      ),
    };
  }
  return 'book_flight asked more than three rounds';
}

/** Questions a flow's person was asked more than once. */
const askedTwice = (flows: Flow[]) =>
  flows.reduce((count, flow) => count + flow.asked.length - new Set(flow.asked).size, 0);

describe.skipIf(missing.length > 0)(
  'handshake-era flows outlive their replica (HAProxy, Redis)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-handover-'));
    let redis: RedisServer;
    let balancer: Balancer;
    let bookingMain: string;
    const ports: number[] = [];
    const replicas: (ChildProcess | undefined)[] = [];

    async function startReplica(i: number): Promise<void> {
      replicas[i] = await startApp(
        bookingMain,
        { BOOKING_PORT: String(ports[i]), REQUEST_STATE_KEY: RING, REDIS_URL: redis.url },
        'booking: serving',
        `replica ${i}`,
      );
    }

    beforeAll(async () => {
      [redis, bookingMain] = await Promise.all([
        startRedisServer(redisBinary!),
        bundleApp('apps/booking/src/main.ts', join(dir, 'booking')),
      ]);
      for (let i = 0; i < 3; i++) ports.push(await freePort());
      await Promise.all([0, 1, 2].map(startReplica));
      balancer = await startHaproxy(dir, ports, { servedBy: true });
      await balancer.upInHaproxy(3);
    }, 120_000);

    afterAll(async () => {
      await stopProcess(balancer?.process);
      for (const child of replicas) child?.kill('SIGKILL');
      await redis?.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a rolling restart under slow persons: every flow of both eras completes on its first attempt, nobody is asked twice', async () => {
      const think = async () =>
        void (await sleep(THINK_MIN + Math.random() * (THINK_MAX - THINK_MIN)));
      const spread = Math.min(150, THINK_MIN / PEOPLE);
      const flows = Array.from({ length: PEOPLE }, (_, n) =>
        sleep(n * spread).then(() => personFlow(balancer.url, think)),
      );
      const modern = Array.from({ length: PEOPLE }, (_, n) =>
        sleep(n * spread).then(() => modernPersonFlow(balancer.url, think)),
      );
      // The restart begins once every person is thinking about a question.
      await sleep(PEOPLE * spread + THINK_MIN / 2);
      const drains: number[] = [];
      for (let i = 0; i < 3; i++) {
        const drained = await drainReplica(replicas[i]!);
        expect(drained.code).toBe(0);
        drains.push(drained.ms);
        trace(`replica ${i} drained in ${drains.at(-1)} ms`);
        await startReplica(i);
        await balancer.upInHaproxy(3);
        trace(`replica ${i} up again`);
      }
      const done = await Promise.all(flows);
      const modernDone = await Promise.all(modern);
      const failed = done.filter((flow) => flow.result === undefined || !BOOKED.test(flow.result));
      const modernFailed = modernDone.filter((text) => !BOOKED.test(text));
      // A flow whose call's stream was resumed went on in another process: its replica drained
      // (a restarted replica has the same name in HAProxy, and a new process behind it).
      const moved = done.filter((flow) => flow.resumed > 0).length;
      trace(
        `handshake ${done.length - failed.length}/${done.length} on the first attempt (${moved} moved, asked twice ${askedTwice(done)}), modern ${modernDone.length - modernFailed.length}/${modernDone.length}, drains ${drains.join('/')} ms`,
      );
      expect(failed.map((flow) => flow.error ?? flow.result)).toEqual([]);
      expect(modernFailed).toEqual([]);
      expect(askedTwice(done)).toBe(0);
      expect(done.every((flow) => flow.asked.length === 3)).toBe(true);
      // The restart did reach flows waiting on their person, and they went on elsewhere.
      expect(moved).toBeGreaterThanOrEqual(PEOPLE / 2);
    }, 600_000);

    test('SIGKILL of the replica holding waiting flows: they complete on another within seconds', async () => {
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      let waiting = 0;
      const think = async (message: string) => {
        if (!message.startsWith('When')) return;
        waiting++;
        await released;
      };
      const people = 9;
      const flows = Array.from({ length: people }, (_, n) =>
        personFlow(balancer.url, think, n % 2 ? 'parley' : 'sdk'),
      );
      for (const started = Date.now(); waiting < people; await sleep(50)) {
        if (Date.now() - started > 30_000)
          throw new Error(`only ${waiting} flows reached a question`);
      }
      // HAProxy's round robin spread the sessions: kill the first replica, whatever it holds.
      const victim = replicas[0]!;
      victim.kill('SIGKILL');
      const killedAt = Date.now() - t0;
      trace(`replica 0 killed with ${waiting} flows waiting on their person`);
      await sleep(500);
      release();
      const done = await Promise.all(flows);
      const slowest = Math.max(...done.map((flow) => (flow.endedAt ?? 0) - killedAt));
      trace(`all flows ended within ${slowest} ms of the SIGKILL; asked twice ${askedTwice(done)}`);
      expect(
        done.map((flow) => flow.error ?? flow.result).filter((r) => !BOOKED.test(r ?? '')),
      ).toEqual([]);
      expect(askedTwice(done)).toBe(0);
      // Within seconds: the dead replica's heartbeat lapses (3 s), the client reconnects (≤ 2 s).
      expect(slowest).toBeLessThan(15_000);
      await startReplica(0);
      await balancer.upInHaproxy(3);
    }, 120_000);
  },
);
