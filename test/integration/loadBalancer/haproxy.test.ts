import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { startRedisServer, type RedisServer } from '../../../scripts/redisServer.ts';
import {
  bundleApp,
  freePort,
  haproxyBinary,
  haproxyVersion,
  missingBinaries,
  redisBinary,
  sleep,
  startApp,
  startHaproxy,
  type Balancer,
} from './harness.ts';

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
interface Figures {
  requests: number;
  failedRequests: { what: string; phase: string }[];
  modernFlows: number;
  handshakeFlows: number;
  failedFlows: string[];
  /** Handshake sessions a drain ended, reopened by the client (on another replica). */
  sessionsReopened: number;
  /** Rounds that failed during the SIGKILL and completed when retried with the same state. */
  roundsRetried: number;
}

const figures: Figures = {
  requests: 0,
  failedRequests: [],
  modernFlows: 0,
  handshakeFlows: 0,
  failedFlows: [],
  sessionsReopened: 0,
  roundsRetried: 0,
};
let phase = 'start';
const t0 = Date.now();
const tracing = process.env.LB_TRACE === '1';
const trace = (line: string) => tracing && console.error(`[lb +${Date.now() - t0} ms] ${line}`);

/** fetch, counting every request and every failure: a transport error or a 5xx. */
async function counted(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  figures.requests++;
  try {
    const response = await fetch(input, init);
    if (response.status >= 500) {
      // Parley's 503s carry a JSON-RPC error, HAProxy's own an HTML page: the body says whose.
      const body = (await response.clone().text()).slice(0, 200);
      figures.failedRequests.push({ what: `HTTP ${response.status}: ${body}`, phase });
      trace(`${response.status} ${JSON.stringify([...response.headers])} ${body}`);
    }
    return response;
  } catch (error) {
    // An abort is the client cancelling its own request (the SDK client closing its GET
    // stream), not a failure of the fleet.
    if ((error as Error).name !== 'AbortError') {
      figures.failedRequests.push({ what: String((error as Error).cause ?? error), phase });
    }
    throw error;
  }
}

const answers: Record<string, Record<string, unknown>> = {
  destination: { destination: 'Lisbon' },
  date: { date: '2026-09-01' },
  passenger: { passenger: 'Ada Lovelace', confirm: true },
};

interface ModernReply {
  result?: {
    resultType?: string;
    requestState?: string;
    inputRequests?: Record<string, unknown>;
    content?: { text: string }[];
  };
  error?: { code: number; message: string };
}

let nextId = 1;
function roundRequest(round: { inputResponses?: unknown; requestState?: string }): RequestInit {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'book_flight',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: {
        name: 'book_flight',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
        },
        ...round,
      },
    }),
  };
}

async function modernRound(
  url: string,
  round: { inputResponses?: unknown; requestState?: string },
): Promise<ModernReply> {
  const response = await counted(url, roundRequest(round));
  return (await response.json()) as ModernReply;
}

/**
 * One book_flight flow of three rounds. `retry`: a round that fails in transport or with a 5xx
 * is sent again with the same state (what a client does when a replica dies under it).
 */
async function modernFlow(url: string, retry: boolean): Promise<string> {
  let round: { inputResponses?: unknown; requestState?: string } = {};
  for (let n = 0; n < 4; n++) {
    let reply: ModernReply | undefined;
    for (let attempt = 0; reply === undefined; attempt++) {
      try {
        reply = await modernRound(url, round);
      } catch (error) {
        if (!retry || attempt >= 10) throw error;
        figures.roundsRetried++;
        await sleep(200);
      }
    }
    if (reply.error !== undefined) throw new Error(`round ${n + 1}: ${reply.error.message}`);
    const result = reply.result!;
    if (result.resultType !== 'input_required') return result.content?.[0]?.text ?? '';
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
  throw new Error('book_flight asked more than three rounds');
}

/** One handshake-era flow: a session, book_flight with its three ctx.elicit-style questions. */
async function handshakeFlow(url: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const client = new Client(
      { name: 'lb-handshake', version: '1' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.onerror = () => {}; // the GET stream of a drained replica ends; the call says how
    client.setRequestHandler('elicitation/create', (request) => {
      const message = String(request.params.message);
      const key = message.startsWith('Where')
        ? 'destination'
        : message.startsWith('When')
          ? 'date'
          : 'passenger';
      return { action: 'accept', content: answers[key] as never };
    });
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      fetch: counted as typeof fetch,
    });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: 'book_flight', arguments: {} });
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      await transport.terminateSession().catch(() => {});
      return text;
    } catch (error) {
      // A drain ends the session (its waiting call gets a JSON-RPC error, or the session is
      // unknown once the replica is gone): the client opens a new one, which the balancer
      // sends to a replica that is up.
      const message = String(error);
      if (attempt >= 3 || !/shutting down|Session not found|session/i.test(message)) throw error;
      figures.sessionsReopened++;
    } finally {
      await client.close().catch(() => {});
    }
  }
}

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
    child.removeAllListeners('exit'); // (the start-up's)
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const started = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    drains.push(Date.now() - started);
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
    balancer?.process.kill('SIGKILL');
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
          figures.failedFlows.push(`${phase}: ${String(error)}`);
        }
      }
    };
    const modernLoad = (retry: boolean) =>
      Array.from({ length: 4 }, () =>
        worker(
          () => modernFlow(front, retry),
          () => figures.modernFlows++,
        ),
      );
    const handshakeLoad = () =>
      Array.from({ length: 2 }, () =>
        worker(
          () => handshakeFlow(front),
          () => figures.handshakeFlows++,
        ),
      );

    // 1. Three rolling restarts, one replica at a time, each rotating the ring one step.
    phase = 'rolling restarts';
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
    phase = 'single use';
    const direct = (i: number) => `http://127.0.0.1:${ports[i]}/mcp`;
    const asked = await modernRound(direct(0), {});
    const state = asked.result!.requestState!;
    const second = {
      requestState: state,
      inputResponses: { destination: { action: 'accept', content: answers.destination } },
    };
    const spent = await modernRound(direct(0), second);
    expect(spent.result?.resultType).toBe('input_required');
    // … retried on replica 2 within the replay window: the same outcome, not a second run …
    expect((await modernRound(direct(1), second)).result?.inputRequests).toEqual(
      spent.result?.inputRequests,
    );
    // … and replayed on replica 3 after it: refused.
    await sleep(1_700);
    expect((await modernRound(direct(2), second)).error).toMatchObject({
      code: -32602,
      message: 'Invalid or expired requestState',
    });

    // 3. SIGKILL one replica under load. A round in flight on it (its body half sent) fails;
    // sent again with the same state, through the balancer, it completes on another replica.
    phase = 'SIGKILL';
    const failedBefore = figures.failedRequests.length;
    running = true;
    const killLoad = modernLoad(true);
    const first = await modernRound(front, {});
    const inFlight = new Promise<string>((resolve) => {
      const init = roundRequest({
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
    const retried = await modernRound(front, {
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
