/**
 * `pnpm bench`: every figure Parley is held to, in one run, on one machine, ending in one table.
 * The booking flow (where to, when, booked) served by:
 *
 * - `limit`       the practical limit (`http/limit.ts`): node:http with the same checks, the same
 *                 sealing and the same JSON as a correct server, and no framework;
 * - `parley`      ParleyServer, the guard pattern (modern) and `ctx.elicit` (handshake);
 * - `parley-ask`  ParleyServer, the same modern flow written once with `await ctx.ask(...)`;
 * - `sdk`         the raw MCP SDK v2 (`createMcpHandler` + `toNodeHandler`), same modern flow;
 * - `sdk-hs`      the raw SDK's handshake era: `McpServer` and a node transport per session.
 *
 * Parts (`PARTS=modern,handshake,memory,load,cold`, and `profile` on request):
 *
 * - modern: server CPU per request, every contender interleaved turn by turn; Parley ÷ limit
 *   and SDK ÷ limit per turn, median and quartiles;
 * - handshake: CPU per request of a `ctx.elicit` flow over a session, Parley vs the raw SDK;
 * - memory: heap after GC per handshake session left waiting on its question, Parley vs SDK;
 * - load: 256 and 1,024 concurrent modern flows (limit, Parley, SDK): throughput, p50/p99
 *   latency per request, peak RSS, from a load generator in its own process;
 * - cold: process start to the first modern response, Parley vs SDK, interleaved turns with a
 *   floor (the same app's zod, node:http and node:crypto, no framework) to tell each one's share.
 *
 * Knobs: TURNS, TURN_MS, WARMUP_MS, CONCURRENCY (modern CPU), LOAD (e.g. `256,1024`), LOAD_MS,
 * LOAD_TURNS, PENDING, COLD_RUNS, PROFILE_MS, PROFILE_TOP, BASELINE=<checkout> (its Parley runs
 * beside this one in the modern and handshake parts). The contenders run the built packages, as
 * users do: `pnpm bench` builds them first.
 */
import { cpus, totalmem } from 'node:os';

import { coldStarts } from './http/coldStarts.ts';
import { handshakeFlow } from './http/flows.ts';
import {
  BASELINE,
  LoadClient,
  baselineScript,
  cpuPerRequest,
  interleaved,
  median,
  ratios,
  showSpread,
  type Running,
  type Spread,
} from './http/harness.ts';
import { loadTest } from './http/loadTest.ts';
import { pendingMemory } from './http/memory.ts';
import { profileModern } from './http/profile.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const TURNS = env('TURNS', 15);
const TURN_MS = env('TURN_MS', 1_500);
const WARMUP_MS = env('WARMUP_MS', 3_000);
const CONCURRENCY = env('CONCURRENCY', 8);
const LOADS = (process.env.LOAD ?? '256,1024').split(',').map(Number);
const LOAD_MS = env('LOAD_MS', 4_000);
const LOAD_TURNS = env('LOAD_TURNS', 3);
const PENDING = env('PENDING', 1_000);
const COLD_RUNS = env('COLD_RUNS', 15);

/** One line of the final table. */
interface Row {
  figure: string;
  parley: string;
  reference: string;
  ratio: string;
  target: string;
  met: boolean | undefined;
}
const rows: Row[] = [];

function verdict(
  figure: string,
  parley: string,
  reference: string,
  ratio: Spread | number,
  target: { at: number; atMost: boolean } | undefined,
): void {
  const value = typeof ratio === 'number' ? ratio : ratio.median;
  rows.push({
    figure,
    parley,
    reference,
    ratio: typeof ratio === 'number' ? ratio.toFixed(2) : showSpread(ratio),
    target: target === undefined ? '—' : `${target.atMost ? '≤' : '≥'} ${target.at}`,
    met: target === undefined ? undefined : target.atMost ? value <= target.at : value >= target.at,
  });
}

const ms = (value: number, digits = 3) => `${value.toFixed(digits)} ms`;
const cpuMedian = (r: Running) => median(r.turns.map(cpuPerRequest));

async function modern(client: LoadClient): Promise<void> {
  const running = await interleaved(
    [
      { name: 'limit', kind: 'limit' },
      { name: 'parley', kind: 'parley' },
      { name: 'parley-ask', kind: 'parley-ask' },
      { name: 'sdk', kind: 'sdk' },
      { name: 'parley-off', kind: 'parley-off' },
      { name: 'parley-otel', kind: 'parley-otel' },
      ...(baselineScript === undefined
        ? []
        : [{ name: 'parley-base', kind: 'parley' as const, script: baselineScript }]),
    ],
    {
      turns: TURNS,
      turnMs: TURN_MS,
      warm: async (url) => void (await client.run(url, CONCURRENCY, WARMUP_MS)),
      load: (url, durationMs) => client.run(url, CONCURRENCY, durationMs),
    },
  );
  const [limit, guard, replay, sdk, off, recording, base] = running as [
    Running,
    Running,
    Running,
    Running,
    Running,
    Running,
    Running | undefined,
  ];
  console.log(
    `\nmodern era: server CPU per request, ${CONCURRENCY} flows in flight, ${TURNS} interleaved turns of ${TURN_MS} ms`,
  );
  console.log('contender     requests/s   CPU ms/request   ÷ limit, per turn: median (quartiles)');
  for (const r of running) {
    const requests = r.turns.reduce((sum, t) => sum + t.requests, 0);
    const seconds = r.turns.reduce((sum, t) => sum + t.seconds, 0);
    console.log(
      `${r.name.padEnd(12)} ${(requests / seconds).toFixed(0).padStart(11)} ${cpuMedian(r).toFixed(3).padStart(16)}   ${showSpread(ratios(r, limit, cpuPerRequest))}`,
    );
  }
  const guardRatio = ratios(guard, limit, cpuPerRequest);
  const replayRatio = ratios(replay, limit, cpuPerRequest);
  console.log(`  ctx.ask ÷ guard pattern: ${showSpread(ratios(replay, guard, cpuPerRequest))}`);
  if (base !== undefined) {
    console.log(
      `  Parley ÷ baseline (${BASELINE}): ${showSpread(ratios(guard, base, cpuPerRequest))}`,
    );
  }
  const at = { at: 1.2, atMost: true };
  verdict(
    'modern CPU/request, guard pattern',
    ms(cpuMedian(guard)),
    `limit ${ms(cpuMedian(limit))}`,
    guardRatio,
    at,
  );
  verdict(
    'modern CPU/request, ctx.ask',
    ms(cpuMedian(replay)),
    `limit ${ms(cpuMedian(limit))}`,
    replayRatio,
    at,
  );
  // Telemetry with nothing registered (the default) against none at all, and its price once an
  // SDK records every span and metric (nothing exported).
  verdict(
    'telemetry, nothing registered',
    ms(cpuMedian(guard)),
    `telemetry: false ${ms(cpuMedian(off))}`,
    ratios(guard, off, cpuPerRequest),
    { at: 1.05, atMost: true },
  );
  verdict(
    'telemetry, an SDK recording',
    ms(cpuMedian(recording)),
    `telemetry: false ${ms(cpuMedian(off))}`,
    ratios(recording, off, cpuPerRequest),
    undefined,
  );
  verdict(
    'modern CPU/request, raw SDK v2',
    ms(cpuMedian(sdk)),
    `limit ${ms(cpuMedian(limit))}`,
    ratios(sdk, limit, cpuPerRequest),
    undefined,
  );
}

/** Handshake flows from this process (they read SSE), `concurrency` in flight. */
async function handshakeLoad(url: string, durationMs: number) {
  const latencies: number[] = [];
  let flows = 0;
  let requests = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const sent = await handshakeFlow(url, latencies);
        requests += sent;
        flows++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    flows,
    requests,
    errors: 0,
    seconds: (performance.now() - started) / 1000,
    p50: latencies[Math.floor(latencies.length / 2)] ?? 0,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}

async function handshake(): Promise<void> {
  const running = await interleaved(
    [
      { name: 'parley-hs', kind: 'parley' },
      { name: 'sdk-hs', kind: 'sdkSessions' },
      ...(baselineScript === undefined
        ? []
        : [{ name: 'base-hs', kind: 'parley' as const, script: baselineScript }]),
    ],
    {
      turns: Math.max(5, Math.round(TURNS / 2)),
      turnMs: TURN_MS,
      warm: async (url) => void (await handshakeLoad(url, WARMUP_MS)),
      load: handshakeLoad,
    },
  );
  const [parley, sdk, base] = running as [Running, Running, Running | undefined];
  const ratio = ratios(parley, sdk, cpuPerRequest);
  console.log(
    `\nhandshake era (a session, ctx.elicit twice on the call stream): Parley ${ms(cpuMedian(parley))}, SDK ${ms(cpuMedian(sdk))} CPU/request; ÷ SDK ${showSpread(ratio)}`,
  );
  if (base !== undefined) {
    console.log(`  Parley ÷ baseline: ${showSpread(ratios(parley, base, cpuPerRequest))}`);
  }
  verdict(
    'handshake CPU/request (ctx.elicit ×2)',
    ms(cpuMedian(parley)),
    `SDK ${ms(cpuMedian(sdk))}`,
    ratio,
    { at: 0.5, atMost: true },
  );
}

async function memory(): Promise<void> {
  const parley = await pendingMemory('parley', PENDING);
  const sdk = await pendingMemory('sdkSessions', PENDING);
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const ratio = parley.heapPerSession / sdk.heapPerSession;
  console.log(
    `\nmemory per pending ctx.elicit session (${PENDING} sessions, heap after GC): Parley ${kib(parley.heapPerSession)} (RSS ${kib(parley.rssPerSession)}), SDK ${kib(sdk.heapPerSession)} (RSS ${kib(sdk.rssPerSession)}); ÷ SDK ${ratio.toFixed(2)}`,
  );
  verdict(
    `heap per pending session (${PENDING})`,
    kib(parley.heapPerSession),
    `SDK ${kib(sdk.heapPerSession)}`,
    ratio,
    { at: 0.5, atMost: true },
  );
}

async function load(client: LoadClient): Promise<void> {
  for (const concurrency of LOADS) {
    const results = await loadTest(client, {
      concurrency,
      durationMs: LOAD_MS,
      turns: LOAD_TURNS,
      warmMs: WARMUP_MS,
    });
    console.log(
      `\nunder load: ${concurrency} concurrent modern flows, ${LOAD_TURNS} interleaved turns of ${LOAD_MS} ms`,
    );
    console.log('contender   requests/s   p50 ms   p99 ms   peak RSS MiB   errors');
    for (const r of results) {
      console.log(
        `${r.name.padEnd(10)} ${r.throughput.toFixed(0).padStart(11)} ${r.p50.toFixed(2).padStart(8)} ${r.p99.toFixed(2).padStart(8)} ${(r.peakRss / 2 ** 20).toFixed(0).padStart(14)} ${String(r.errors).padStart(8)}`,
      );
    }
    const [limit, parley] = results as [(typeof results)[number], (typeof results)[number]];
    verdict(
      `throughput at ${concurrency} flows`,
      `${parley.throughput.toFixed(0)} req/s`,
      `limit ${limit.throughput.toFixed(0)}`,
      parley.throughput / limit.throughput,
      { at: 0.8, atMost: false },
    );
    verdict(
      `p99 latency at ${concurrency} flows`,
      ms(parley.p99, 1),
      `limit ${ms(limit.p99, 1)}`,
      parley.p99 / limit.p99,
      { at: 1.5, atMost: true },
    );
  }
}

async function cold(): Promise<void> {
  const { spawn, script } = await coldStarts(COLD_RUNS);
  const line = (figures: typeof spawn) =>
    `Parley ${figures.parley.toFixed(0)} ms, SDK ${figures.sdk.toFixed(0)} ms, floor ${figures.floor.toFixed(0)} ms; ` +
    `÷ SDK ${figures.ratio.toFixed(2)}, own share (less the floor) ÷ SDK's ${figures.ownRatio.toFixed(2)}, ` +
    `floor ÷ SDK ${(figures.floor / figures.sdk).toFixed(2)}`;
  console.log(
    `\ncold start to the first modern response (${COLD_RUNS} interleaved turns, medians):\n` +
      `  from process start: ${line(spawn)}\n  from the script's first line: ${line(script)}`,
  );
  verdict(
    'cold start, process start to first modern response',
    `${spawn.parley.toFixed(0)} ms`,
    `SDK ${spawn.sdk.toFixed(0)} ms`,
    spawn.ratio,
    { at: 0.5, atMost: true },
  );
  verdict(
    "cold start, script's first line to first response",
    `${script.parley.toFixed(0)} ms`,
    `SDK ${script.sdk.toFixed(0)} ms`,
    script.ratio,
    { at: 0.5, atMost: true },
  );
  verdict(
    'cold start, own share (less the floor)',
    `${(script.parley - script.floor).toFixed(0)} ms`,
    `SDK ${(script.sdk - script.floor).toFixed(0)} ms`,
    script.ownRatio,
    undefined,
  );
}

const PARTS = { modern, handshake, memory, load, cold } as const;
const chosen = (process.env.PARTS ?? Object.keys(PARTS).join(',')).split(',');
const machine = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`;
console.log(`pnpm bench on ${machine}`);

const client = new LoadClient();
await client.ready;
for (const part of chosen) {
  if (part === 'profile') {
    await profileModern(client, {
      kind: (process.env.PROFILE_KIND ?? 'parley') as 'parley',
      concurrency: CONCURRENCY,
      warmMs: WARMUP_MS,
      profileMs: env('PROFILE_MS', 5_000),
      top: env('PROFILE_TOP', 12),
    });
    continue;
  }
  const run = PARTS[part as keyof typeof PARTS];
  if (run === undefined) {
    throw new Error(`PARTS: no part ${part} (parts: ${Object.keys(PARTS).join(', ')}, profile)`);
  }
  await run(client);
}
await client.close();

if (rows.length > 0) {
  console.log(`\n| figure | Parley | reference | ratio (median, quartiles) | target | |`);
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const mark = row.met === undefined ? '' : row.met ? 'met' : '**NOT met**';
    console.log(
      `| ${row.figure} | ${row.parley} | ${row.reference} | ${row.ratio} | ${row.target} | ${mark} |`,
    );
  }
  console.log(`\n${machine}; ${new Date().toISOString().slice(0, 10)}`);
}
