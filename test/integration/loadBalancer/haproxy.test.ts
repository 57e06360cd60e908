import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { repoRoot } from '../../../scripts/apps.mjs';
import {
  findRedisServer,
  startRedisServer,
  type RedisServer,
} from '../../../scripts/redisServer.ts';

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

function findHaproxy(): string | undefined {
  const explicit = process.env.HAPROXY;
  if (explicit !== undefined && explicit !== '') return explicit;
  // Debian installs it in /usr/sbin, which a non-root PATH may lack.
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin']) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, 'haproxy'), constants.X_OK);
      return join(dir, 'haproxy');
    } catch {
      // not here
    }
  }
  return undefined;
}

const haproxyBinary = findHaproxy();
const redisBinary = findRedisServer();
const missing = [haproxyBinary ? [] : ['haproxy'], redisBinary ? [] : ['redis-server']].flat();
if (missing.length > 0) {
  const how = `install it (apt-get install -y ${missing.join(' ')}), then run pnpm vitest run --project integration loadBalancer`;
  if (process.env.CI === 'true') {
    throw new Error(`the load-balancer test needs ${missing.join(' and ')} in CI; ${how}`);
  }
  console.warn(`load-balancer test skipped: no ${missing.join(' or ')} here; ${how}`);
}

const OLD = 'old-key-of-the-fleet-000000000000000';
const NEW = 'new-key-of-the-fleet-111111111111111';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The guide's configuration, on this run's ports, plus a probe of how many replicas are up. */
function configFor(front: number, probe: number, replicas: number[], log: boolean): string {
  let config = readFileSync(`${repoRoot}docs/examples/${'deployment/haproxy.cfg'}`, 'utf8');
  config = config.replace(
    'bind 127.0.0.1:8080',
    `bind 127.0.0.1:${front}` +
      (log
        ? '\n    log stdout format raw local0' +
          '\n    http-request capture req.hdr(mcp-session-id) len 64' +
          '\n    log-format "%t %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %tsc retries=%rc %{+Q}r session=%[capture.req.hdr(0)]"'
        : ''),
  );
  replicas.forEach((port, i) => {
    config = config.replace(`127.0.0.1:${3001 + i}`, `127.0.0.1:${port}`);
  });
  return `${config}
frontend probe
    bind 127.0.0.1:${probe}
    http-request return status 200 content-type text/plain lf-string "%[nbsrv(booking)]"
`;
}

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

/**
 * apps/booking bundled once (its workspace packages from source), so a replica starts in
 * node's time, not tsx's: a restart is then a drain and a start-up, as in production.
 */
async function bundleBooking(outdir: string): Promise<string> {
  await build({
    entryPoints: { main: `${repoRoot}apps/booking/src/main.ts` },
    outdir,
    bundle: true,
    // The SDK stays a lazy chunk, loaded with the first handshake-era session.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['@parley/source'],
    // CommonJS dependencies inside an ES module bundle still call require().
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  return join(outdir, 'main.js');
}

describe.skipIf(missing.length > 0)('three replicas behind HAProxy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-lb-'));
  let redis: RedisServer;
  let haproxy: ChildProcess;
  let front: string;
  let probe: number;
  const ports: number[] = [];
  const replicas: (ChildProcess | undefined)[] = [];
  const rings: string[] = [];
  /** How long each graceful close took, SIGTERM to exit. */
  const drains: number[] = [];
  let bookingMain: string;

  async function startReplica(i: number, ring: string): Promise<void> {
    const child = spawn(process.execPath, [bookingMain], {
      env: {
        ...process.env,
        BOOKING_PORT: String(ports[i]),
        REQUEST_STATE_KEY: ring,
        REDIS_URL: redis.url,
        REPLAY_WINDOW_MS: '1500',
        ROUND_LEASE_MS: '1500',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    replicas[i] = child;
    rings[i] = ring;
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('booking: serving')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`replica ${i} exited (${code}): ${seen}`)));
    });
  }

  // Generous: inside the whole suite on two busy cores, start-up and health checks are slow.
  async function upInHaproxy(count: number): Promise<void> {
    for (const started = Date.now(); Date.now() - started < 45_000; await sleep(50)) {
      const up = await fetch(`http://127.0.0.1:${probe}/`).then(
        (r) => r.text(),
        () => '',
      );
      if (Number(up) === count) return;
    }
    throw new Error(`HAProxy never saw ${count} replicas up`);
  }

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
      bundleBooking(join(dir, 'booking')),
    ]);
    for (let i = 0; i < 3; i++) ports.push(await freePort());
    const frontPort = await freePort();
    probe = await freePort();
    front = `http://127.0.0.1:${frontPort}/mcp`;
    await Promise.all([0, 1, 2].map((i) => startReplica(i, OLD)));
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(config, configFor(frontPort, probe, ports, tracing));
    // With LB_TRACE=1, HAProxy's request log and its server state changes are kept.
    const log = (name: string) => openSync(join(tmpdir(), name), 'w');
    haproxy = spawn(haproxyBinary!, ['-db', '-f', config], {
      stdio: tracing
        ? ['ignore', log('parley-lb-haproxy.log'), log('parley-lb-haproxy.err')]
        : 'ignore',
    });
    await upInHaproxy(3);
  }, 120_000);

  afterAll(async () => {
    haproxy?.kill('SIGKILL');
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

function haproxyVersion(binary: string): string {
  const out = spawnSync(binary, ['-v'], { encoding: 'utf8' }).stdout;
  return /version (\S+)/.exec(out)?.[1] ?? 'unknown';
}
