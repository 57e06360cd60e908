/**
 * HTTP benchmark, one run, one machine, one load generator. The booking flow (where to, when,
 * booked) served by:
 *
 * - `bare`      a node:http JSON responder that checks nothing (the ceiling);
 * - `limit`     the practical limit: the work any real server must do per round, no framework
 *               (node:http, JSON.parse, a zod check of the answer, AES-256-GCM seal/open bound
 *               to a SHA-256 of method + tool + arguments, JSON.stringify);
 * - `parley`    ParleyServer, modern protocol (the guard pattern, three stateless rounds);
 * - `sdk`       the raw MCP SDK v2 (`createMcpHandler` + `toNodeHandler`), same flow;
 * - `parley-hs` ParleyServer, handshake era: a session, `ctx.elicit` twice on the call's stream;
 * - `sdk-hs`    the raw SDK's handshake era: `McpServer` + node transport per session.
 *
 * Then, Parley against the raw SDK: memory per handshake session left waiting on `ctx.elicit`
 * (`elicitInput`), and cold start (spawn to the first modern response, plain `node`, built
 * packages). Last, where Parley's modern CPU goes (profiled during the measured window only).
 *
 *   pnpm --filter @parley/bench bench:http      (DURATION_MS, WARMUP_MS, CONCURRENCY, PENDING)
 *
 * The contenders run the built packages (`bench:http` builds them first), as users do.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { handshakeFlow, modernFlow, pendingElicitation } from './http/flows.ts';

type Kind = 'bare' | 'limit' | 'parley' | 'sdk' | 'sdkSessions';

const DURATION_MS = Number(process.env.DURATION_MS ?? 8_000);
const WARMUP_MS = Number(process.env.WARMUP_MS ?? 2_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const PENDING = Number(process.env.PENDING ?? 300);
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 7);
const serverScript = fileURLToPath(new URL('./http/serverProcess.ts', import.meta.url));
const coldScript = fileURLToPath(new URL('./http/coldStart.mjs', import.meta.url));

interface Contender {
  child: ChildProcess;
  url: string;
}

function ask<T>(child: ChildProcess, message: unknown, key: string): Promise<T> {
  return new Promise((resolve) => {
    const listen = (reply: unknown) => {
      if (typeof reply === 'object' && reply !== null && key in reply) {
        child.off('message', listen);
        resolve((reply as Record<string, T>)[key] as T);
      }
    };
    child.on('message', listen);
    child.send(message as never);
  });
}

async function start(kind: Kind): Promise<Contender> {
  const child = fork(serverScript, [kind], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve) =>
    child.once('message', (message) => resolve((message as { url: string }).url)),
  );
  return { child, url };
}

async function cpuOf(child: ChildProcess): Promise<number> {
  const cpu = await ask<{ user: number; system: number }>(child, 'cpu', 'cpu');
  return (cpu.user + cpu.system) / 1000;
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('exit');
  await exited;
}

type Flow = (url: string, latencies: number[]) => Promise<number>;

async function load(url: string, flow: Flow, durationMs: number) {
  const latencies: number[] = [];
  let flows = 0;
  let requests = 0;
  const deadline = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        requests += await flow(url, latencies);
        flows++;
      }
    }),
  );
  return { flows, requests, latencies };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Measured {
  name: string;
  requestsPerSecond: number;
  flowsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  cpuMsPerFlow: number;
}

async function measure(
  name: string,
  kind: Kind,
  flow: Flow,
  profileTo?: string,
): Promise<Measured> {
  const { child, url } = await start(kind);
  await load(url, flow, WARMUP_MS);
  if (profileTo !== undefined) await ask(child, 'profile-start', 'profiling');
  const cpuBefore = await cpuOf(child);
  const started = performance.now();
  const { flows, requests, latencies } = await load(url, flow, DURATION_MS);
  const seconds = (performance.now() - started) / 1000;
  const cpu = (await cpuOf(child)) - cpuBefore;
  if (profileTo !== undefined) await ask(child, { profile: profileTo }, 'profiled');
  await stop(child);
  latencies.sort((a, b) => a - b);
  return {
    name,
    requestsPerSecond: requests / seconds,
    flowsPerSecond: flows / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsPerRequest: cpu / requests,
    cpuMsPerFlow: cpu / flows,
  };
}

/** Memory per handshake session left waiting on its first question, after a full GC. */
async function pendingMemory(kind: 'parley' | 'sdkSessions') {
  const { child, url } = await start(kind);
  // Warm the code paths (and the pools) first, so only the sessions are counted.
  for (let i = 0; i < 20; i++) await handshakeFlow(url, []);
  const drops = [];
  for (let i = 0; i < 10; i++) drops.push(await pendingElicitation(url));
  const before = await ask<{ heapUsed: number; rss: number }>(child, 'memory', 'memory');
  for (let i = 0; i < PENDING; i++) drops.push(await pendingElicitation(url));
  const after = await ask<{ heapUsed: number; rss: number }>(child, 'memory', 'memory');
  await Promise.all(drops.map((drop) => drop()));
  await stop(child);
  return {
    heapPerSession: (after.heapUsed - before.heapUsed) / PENDING,
    rssPerSession: (after.rss - before.rss) / PENDING,
  };
}

const coldHeaders = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'book_flight',
};

/** Spawn to the first modern response (a round that asks), median of COLD_RUNS runs. */
async function coldStart(kind: 'parley' | 'sdk'): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < COLD_RUNS; run++) {
    const started = performance.now();
    const child = fork(coldScript, [kind], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve) =>
      child.once('message', (message) => resolve((message as { url: string }).url)),
    );
    const response = await fetch(url, {
      method: 'POST',
      headers: coldHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'book_flight',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          },
        },
      }),
    });
    const body = (await response.json()) as { result?: { resultType?: string } };
    runs.push(performance.now() - started);
    if (body.result?.resultType !== 'input_required')
      throw new Error(`${kind}: unexpected first response ${JSON.stringify(body)}`);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.send('exit');
    await exited;
  }
  runs.sort((a, b) => a - b);
  return percentile(runs, 50);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

function category(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)')
    return 'idle / runtime';
  if (url.includes('/state-sealing/')) return 'Parley: sealing';
  if (url.includes('/packages/server/') || url.includes('@parley/server'))
    // The built chunks: `nodeHandler-*` bundles the node:http adapter with the endpoint and the
    // modern dispatcher; `runtime-*` holds the round pipeline.
    return url.includes('nodeHandler') || url.includes('nodeListener')
      ? 'Parley: node:http, endpoint, modern dispatcher'
      : 'Parley: round pipeline, context, answers';
  if (url.includes('/packages/') || url.includes('@parley/'))
    return 'Parley: schema, core, middleware';
  if (url.includes('zod')) return 'zod';
  if (url.includes('modelcontextprotocol')) return 'SDK';
  if (url.includes('undici')) return 'fetch (undici) Request/Response';
  if (url.startsWith('node:') || url === '') return 'Node: sockets, HTTP parsing, crypto, builtins';
  return 'other';
}

function summariseProfile(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const key = category(node);
    if (key === 'idle / runtime') return;
    const micros = profile.timeDeltas[index] ?? 0;
    busy += micros;
    totals.set(key, (totals.get(key) ?? 0) + micros);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*\/(node_modules|packages)\//, '').replace(/^file:\/\//, '');
    const name = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  });
  console.log('\nwhere Parley’s modern server CPU goes (measured window, excluding idle):');
  for (const [key, micros] of [...totals].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${key.padEnd(48)} ${((100 * micros) / busy).toFixed(1).padStart(5)} %`);
  }
  console.log('  top functions (self time):');
  for (const [name, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    console.log(`    ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${name}`);
  }
}

console.log(
  `Node ${process.version}; ${CONCURRENCY} concurrent flows; ${DURATION_MS} ms per contender after ${WARMUP_MS} ms warm-up\n`,
);
const profileDir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
const profileFile = join(profileDir, 'parley.cpuprofile');
const results: Measured[] = [];
results.push(await measure('bare', 'bare', modernFlow));
results.push(await measure('limit', 'limit', modernFlow));
results.push(await measure('parley', 'parley', modernFlow));
results.push(await measure('sdk', 'sdk', modernFlow));
results.push(await measure('parley-hs', 'parley', handshakeFlow));
results.push(await measure('sdk-hs', 'sdkSessions', handshakeFlow));
// The profile is its own run, so profiling costs nothing to the figures above.
await measure('parley (profiled)', 'parley', modernFlow, profileFile);

const byName = new Map(results.map((result) => [result.name, result]));
const limitCpu = (byName.get('limit') as Measured).cpuMsPerRequest;
console.log(
  'contender   requests/s   flows/s   p50 ms   p99 ms   CPU ms/request   ÷ limit   CPU ms/flow',
);
for (const r of results) {
  console.log(
    `${r.name.padEnd(10)} ${r.requestsPerSecond.toFixed(0).padStart(11)} ${r.flowsPerSecond.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${r.cpuMsPerRequest.toFixed(3).padStart(16)} ${(r.cpuMsPerRequest / limitCpu).toFixed(2).padStart(9)} ${r.cpuMsPerFlow.toFixed(3).padStart(13)}`,
  );
}
const parleyCpu = (byName.get('parley') as Measured).cpuMsPerRequest;
const sdkCpu = (byName.get('sdk') as Measured).cpuMsPerRequest;
console.log(
  `\nmodern: Parley ÷ limit ${(parleyCpu / limitCpu).toFixed(2)}× CPU/request (target ≤ 1.50), Parley ÷ SDK ${(parleyCpu / sdkCpu).toFixed(2)}×`,
);
const hs = byName.get('parley-hs') as Measured;
const sdkHs = byName.get('sdk-hs') as Measured;
console.log(
  `handshake: Parley ÷ SDK ${(hs.cpuMsPerFlow / sdkHs.cpuMsPerFlow).toFixed(2)}× CPU/flow (${hs.cpuMsPerFlow.toFixed(3)} vs ${sdkHs.cpuMsPerFlow.toFixed(3)} ms)`,
);

const parleyMemory = await pendingMemory('parley');
const sdkMemory = await pendingMemory('sdkSessions');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(`\nmemory per pending ctx.elicit session (${PENDING} sessions, after GC):`);
console.log(
  `  Parley heap ${kib(parleyMemory.heapPerSession)}, RSS ${kib(parleyMemory.rssPerSession)}; SDK heap ${kib(sdkMemory.heapPerSession)}, RSS ${kib(sdkMemory.rssPerSession)}; heap ÷ SDK ${(parleyMemory.heapPerSession / sdkMemory.heapPerSession).toFixed(2)} (target ≤ 0.50)`,
);

const parleyCold = await coldStart('parley');
const sdkCold = await coldStart('sdk');
console.log(
  `cold start to the first modern response (median of ${COLD_RUNS}): Parley ${parleyCold.toFixed(0)} ms, SDK ${sdkCold.toFixed(0)} ms, ÷ SDK ${(parleyCold / sdkCold).toFixed(2)} (target ≤ 0.50)`,
);

summariseProfile(profileFile);
rmSync(profileDir, { recursive: true, force: true });
