/**
 * HTTP benchmark: a three-round booking flow on the modern protocol (2026-07-28), served by a
 * bare node:http JSON responder (the ceiling), by the raw MCP SDK v2 (`createMcpHandler`), and by
 * Parley. One load generator, same flow, same machine, one run. Prints requests/s, flows/s,
 * p50/p99 latency, server CPU per request and the ratios; then profiles the SDK and Parley
 * servers and says where their CPU goes.
 *
 *   pnpm --filter @parley/bench bench:http            (DURATION_MS, CONCURRENCY to tune)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Kind = 'bare' | 'sdk' | 'parley';

const DURATION_MS = Number(process.env.DURATION_MS ?? 8_000);
const WARMUP_MS = Number(process.env.WARMUP_MS ?? 2_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const serverScript = fileURLToPath(new URL('./http/serverProcess.ts', import.meta.url));

interface Contender {
  child: ChildProcess;
  url: string;
}

async function start(kind: Kind, profileDir?: string): Promise<Contender> {
  const execArgv = [
    '--conditions=@parley/source',
    '--import',
    'tsx',
    ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
  ];
  const child = fork(serverScript, [kind], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve) =>
    child.once('message', (message) => resolve((message as { url: string }).url)),
  );
  return { child, url };
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message) => {
      const { cpu } = message as { cpu: { user: number; system: number } };
      resolve((cpu.user + cpu.system) / 1000);
    });
    child.send('cpu');
  });
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('exit');
  await exited;
}

const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'book_flight',
};
const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

let nextId = 1;
async function round(
  url: string,
  extra: Record<string, unknown>,
  latencies: number[],
): Promise<Record<string, unknown>> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'book_flight', arguments: {}, _meta: meta, ...extra },
    }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  latencies.push(performance.now() - started);
  if (body.result === undefined) throw new Error(`round failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

async function flow(url: string, latencies: number[]): Promise<void> {
  const first = await round(url, {}, latencies);
  // A conforming client echoes the state of every round it answers, when there is one.
  const second = await round(
    url,
    {
      inputResponses: { destination: { action: 'accept', content: { destination: 'Paris' } } },
      ...(first.requestState !== undefined ? { requestState: first.requestState } : {}),
    },
    latencies,
  );
  const third = await round(
    url,
    {
      inputResponses: { date: { action: 'accept', content: { date: '2026-08-01' } } },
      requestState: second.requestState,
    },
    latencies,
  );
  if (third.resultType !== 'complete')
    throw new Error(`the flow did not complete: ${JSON.stringify(third)}`);
}

async function load(
  url: string,
  durationMs: number,
): Promise<{ flows: number; latencies: number[] }> {
  const latencies: number[] = [];
  let flows = 0;
  const deadline = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await flow(url, latencies);
        flows++;
      }
    }),
  );
  return { flows, latencies };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Measured {
  kind: Kind;
  requestsPerSecond: number;
  flowsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
}

async function measure(kind: Kind): Promise<Measured> {
  const { child, url } = await start(kind);
  await load(url, WARMUP_MS);
  const cpuBefore = await cpuOf(child);
  const started = performance.now();
  const { flows, latencies } = await load(url, DURATION_MS);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = await cpuOf(child);
  await stop(child);
  latencies.sort((a, b) => a - b);
  return {
    kind,
    requestsPerSecond: latencies.length / seconds,
    flowsPerSecond: flows / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMsPerRequest: (cpuAfter - cpuBefore) / latencies.length,
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

function category(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(root)')
    return 'idle / runtime';
  if (url.includes('/packages/state-sealing/')) return 'Parley: sealing';
  if (
    url.includes('/packages/server/src/http/') ||
    url.includes('@modelcontextprotocol/node') ||
    url.includes('@modelcontextprotocol+node')
  ) {
    return 'request adaptation (node:http <-> fetch)';
  }
  if (url.includes('/packages/')) return 'Parley: own work';
  if (url.includes('zod')) return 'zod';
  if (url.includes('modelcontextprotocol')) return 'SDK dispatch';
  if (url.includes('undici') || url.includes('node:internal/deps/undici'))
    return 'fetch (undici) Request/Response';
  if (url.startsWith('node:') || url === '') return 'Node: sockets, HTTP parsing, streams';
  if (url.includes('tsx') || url.includes('esbuild')) return 'tsx loader';
  return 'other';
}

async function profile(kind: Kind): Promise<Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), `parley-bench-${kind}-`));
  const { child, url } = await start(kind, dir);
  await load(url, WARMUP_MS);
  await load(url, Math.min(DURATION_MS, 4_000));
  await stop(child);
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  const cpuProfile = JSON.parse(readFileSync(join(dir, file as string), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  rmSync(dir, { recursive: true, force: true });
  const byId = new Map(cpuProfile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  cpuProfile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (node === undefined) return;
    const key = category(node);
    totals.set(key, (totals.get(key) ?? 0) + (cpuProfile.timeDeltas[index] ?? 0));
  });
  return totals;
}

console.log(
  `Node ${process.version}; ${CONCURRENCY} concurrent flows; ${DURATION_MS} ms per contender after ${WARMUP_MS} ms warm-up\n`,
);
const results: Measured[] = [];
for (const kind of ['bare', 'sdk', 'parley'] as const) results.push(await measure(kind));
console.log('contender   requests/s   flows/s   p50 ms   p99 ms   server CPU ms/request');
for (const r of results) {
  console.log(
    `${r.kind.padEnd(10)} ${r.requestsPerSecond.toFixed(0).padStart(11)} ${r.flowsPerSecond.toFixed(0).padStart(9)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${r.cpuMsPerRequest.toFixed(3).padStart(12)}`,
  );
}
const [ceiling, sdkResult, parleyResult] = results as [Measured, Measured, Measured];
console.log(
  `\nParley ÷ SDK:     throughput ${(parleyResult.requestsPerSecond / sdkResult.requestsPerSecond).toFixed(2)}×, CPU/request ${(parleyResult.cpuMsPerRequest / sdkResult.cpuMsPerRequest).toFixed(2)}×`,
);
console.log(
  `Parley ÷ ceiling: throughput ${(parleyResult.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2)}×, CPU/request ${(parleyResult.cpuMsPerRequest / ceiling.cpuMsPerRequest).toFixed(2)}×`,
);

for (const kind of ['sdk', 'parley'] as const) {
  const totals = await profile(kind);
  const busy = [...totals].filter(([key]) => key !== 'idle / runtime');
  const sum = busy.reduce((total, [, micros]) => total + micros, 0);
  console.log(`\nwhere ${kind} server CPU goes (profiled, excluding idle):`);
  for (const [key, micros] of busy.sort((a, b) => b[1] - a[1])) {
    console.log(`  ${key.padEnd(42)} ${((100 * micros) / sum).toFixed(1).padStart(5)} %`);
  }
}
