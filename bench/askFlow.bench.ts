/**
 * HTTP benchmark of `ctx.ask`: the same three-round booking flow on the modern protocol
 * (2026-07-28), served by Parley written by hand in the guard pattern and written once with
 * `await ctx.ask(...)` (sealed replay: every round re-runs the handler, replays the recorded
 * answers and seals them again). Prints server CPU per request and the ratio ask ÷ guard (the
 * budget is 1.1×).
 *
 * The machine this runs on is shared and noisy, so the verdict does not rest on one long window
 * per contender: both servers run side by side (each its own process, idle while the other is
 * measured), and after a warm-up they take many short turns in ABBA order (guard, ask, ask,
 * guard, …) under the same load generator, with the same flows and the same client. Each turn
 * pair gives one ratio; the verdict is the median of those ratios, printed with their quartiles
 * and extremes (a neighbour's burst lands on one turn, not on the whole run), and beside it the
 * pooled ratio (all CPU over all requests). Server CPU per request moves by tens of percent
 * within seconds when neighbours are busy, so one pair says little; many pairs say a lot.
 *
 *   pnpm --filter @parley/bench bench:http:ask      (TURNS, TURN_MS, WARMUP_MS, CONCURRENCY)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { modernFlow } from './http/flows.ts';

type Kind = 'guard' | 'ask';

const TURNS = Number(process.env.TURNS ?? 48);
const TURN_MS = Number(process.env.TURN_MS ?? 1_000);
const WARMUP_MS = Number(process.env.WARMUP_MS ?? 3_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const BUDGET = 1.1;
const serverScript = fileURLToPath(new URL('./http/askContenders.ts', import.meta.url));

interface Contender {
  child: ChildProcess;
  url: string;
}

async function start(kind: Kind): Promise<Contender> {
  const child = fork(serverScript, [kind], {
    execArgv: ['--conditions=@parley/source', '--import', 'tsx'],
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

/** The same flow as every `bench:http` contender, with the booking's text checked too. */
const flow = (url: string, latencies: number[]) =>
  modernFlow(url, latencies, 'Booked a flight to Paris on 2026-08-01');

/** Run whole flows for `durationMs` (flows under way at the deadline finish). */
async function load(url: string, durationMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = performance.now() + durationMs;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) await flow(url, latencies);
    }),
  );
  return latencies;
}

interface Totals {
  requests: number;
  seconds: number;
  cpuMs: number;
  latencies: number[];
}

/** One measured turn of one contender; returns its server CPU per request in that turn. */
async function turn({ child, url }: Contender, totals: Totals): Promise<number> {
  const cpuBefore = await cpuOf(child);
  const started = performance.now();
  const latencies = await load(url, TURN_MS);
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = (await cpuOf(child)) - cpuBefore;
  totals.seconds += seconds;
  totals.cpuMs += cpuMs;
  totals.requests += latencies.length;
  for (const latency of latencies) totals.latencies.push(latency);
  return cpuMs / latencies.length;
}

/** The `q` quantile of sorted values, interpolated between neighbours. */
const quantile = (sorted: readonly number[], q: number) => {
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)]!;
  return low + (at - Math.floor(at)) * (sorted[Math.ceil(at)]! - low);
};

console.log(
  `Node ${process.version}; ${CONCURRENCY} concurrent flows; ${TURNS} turns of ${TURN_MS} ms per contender (ABBA order) after ${WARMUP_MS} ms warm-up each\n`,
);
const contenders: Record<Kind, Contender> = {
  guard: await start('guard'),
  ask: await start('ask'),
};
// Warm-up: both servers reach their optimised code before anything is measured (in turns too,
// so neither warms while the other sits cold).
for (let part = 0; part < 3; part++) {
  await load(contenders.guard.url, WARMUP_MS / 3);
  await load(contenders.ask.url, WARMUP_MS / 3);
}
const totals: Record<Kind, Totals> = {
  guard: { requests: 0, seconds: 0, cpuMs: 0, latencies: [] },
  ask: { requests: 0, seconds: 0, cpuMs: 0, latencies: [] },
};
const ratios: number[] = [];
for (let index = 0; index < TURNS; index++) {
  const order: Kind[] = index % 2 === 0 ? ['guard', 'ask'] : ['ask', 'guard'];
  const perRequest: Partial<Record<Kind, number>> = {};
  for (const kind of order) perRequest[kind] = await turn(contenders[kind], totals[kind]);
  ratios.push(perRequest.ask! / perRequest.guard!);
}
await Promise.all([stop(contenders.guard.child), stop(contenders.ask.child)]);

console.log('contender            requests/s   p50 ms   p99 ms   server CPU ms/request (pooled)');
const pooled = (kind: Kind) => totals[kind].cpuMs / totals[kind].requests;
for (const kind of ['guard', 'ask'] as const) {
  const t = totals[kind];
  const sorted = t.latencies.sort((a, b) => a - b);
  const label = kind === 'guard' ? 'guard pattern (hand)' : 'ctx.ask (replay)';
  console.log(
    `${label.padEnd(20)} ${(t.requests / t.seconds).toFixed(0).padStart(11)} ${quantile(sorted, 0.5).toFixed(2).padStart(8)} ${quantile(sorted, 0.99).toFixed(2).padStart(8)} ${pooled(kind).toFixed(3).padStart(12)}`,
  );
}
const sortedRatios = [...ratios].sort((a, b) => a - b);
const median = quantile(sortedRatios, 0.5);
const format = (value: number) => `${value.toFixed(3)}×`;
console.log(
  `\nctx.ask ÷ guard pattern, server CPU/request, per turn pair (${ratios.length}):` +
    `\n  median ${format(median)}; quartiles ${format(quantile(sortedRatios, 0.25))} – ${format(quantile(sortedRatios, 0.75))}; ` +
    `min ${format(sortedRatios[0]!)}, max ${format(sortedRatios.at(-1)!)}; pooled ${format(pooled('ask') / pooled('guard'))}` +
    `\n  budget ${BUDGET}× on the median: ${median <= BUDGET ? 'within' : 'OVER'}`,
);
