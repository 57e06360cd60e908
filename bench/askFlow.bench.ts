/**
 * HTTP benchmark of `ctx.ask`: the same three-round booking flow on the modern protocol
 * (2026-07-28), served by Parley written by hand in the guard pattern and written once with
 * `await ctx.ask(...)` (sealed replay: every round re-runs the handler, replays the recorded
 * answers and seals them again). One load generator, same machine, one run; the contenders take
 * turns (guard, ask, guard, ask…) so a noisy neighbour weighs on both alike. Prints requests/s,
 * p50/p99 latency and server CPU per request, and the ratio ask ÷ guard (the budget is 1.1×).
 *
 *   pnpm --filter @parley/bench bench:http:ask      (DURATION_MS, CONCURRENCY, TURNS to tune)
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

type Kind = 'guard' | 'ask';

const DURATION_MS = Number(process.env.DURATION_MS ?? 5_000);
const WARMUP_MS = Number(process.env.WARMUP_MS ?? 2_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const TURNS = Number(process.env.TURNS ?? 2);
const BUDGET = 1.1;
const serverScript = fileURLToPath(new URL('./http/askContenders.ts', import.meta.url));

async function start(kind: Kind): Promise<{ child: ChildProcess; url: string }> {
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

/** One flow, exactly as a conforming client drives it: the same requests for both contenders. */
async function flow(url: string, latencies: number[]): Promise<void> {
  const first = await round(url, {}, latencies);
  const second = await round(
    url,
    {
      inputResponses: { destination: { action: 'accept', content: { destination: 'Paris' } } },
      requestState: first.requestState,
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
  const text = (third.content as { text?: string }[] | undefined)?.[0]?.text;
  if (text !== 'Booked a flight to Paris on 2026-08-01') {
    throw new Error(`the flow did not complete: ${JSON.stringify(third)}`);
  }
}

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

async function turn(kind: Kind, totals: Totals): Promise<void> {
  const { child, url } = await start(kind);
  await load(url, WARMUP_MS);
  const cpuBefore = await cpuOf(child);
  const started = performance.now();
  const latencies = await load(url, DURATION_MS);
  totals.seconds += (performance.now() - started) / 1000;
  totals.cpuMs += (await cpuOf(child)) - cpuBefore;
  totals.requests += latencies.length;
  totals.latencies.push(...latencies);
  await stop(child);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

console.log(
  `Node ${process.version}; ${CONCURRENCY} concurrent flows; ${TURNS} turns of ${DURATION_MS} ms per contender after ${WARMUP_MS} ms warm-up each\n`,
);
const totals: Record<Kind, Totals> = {
  guard: { requests: 0, seconds: 0, cpuMs: 0, latencies: [] },
  ask: { requests: 0, seconds: 0, cpuMs: 0, latencies: [] },
};
for (let index = 0; index < TURNS; index++) {
  for (const kind of ['guard', 'ask'] as const) await turn(kind, totals[kind]);
}
console.log('contender            requests/s   p50 ms   p99 ms   server CPU ms/request');
const cpuPerRequest = (kind: Kind) => totals[kind].cpuMs / totals[kind].requests;
for (const kind of ['guard', 'ask'] as const) {
  const t = totals[kind];
  const sorted = t.latencies.sort((a, b) => a - b);
  const label = kind === 'guard' ? 'guard pattern (hand)' : 'ctx.ask (replay)';
  console.log(
    `${label.padEnd(20)} ${(t.requests / t.seconds).toFixed(0).padStart(11)} ${percentile(sorted, 50).toFixed(2).padStart(8)} ${percentile(sorted, 99).toFixed(2).padStart(8)} ${cpuPerRequest(kind).toFixed(3).padStart(12)}`,
  );
}
const ratio = cpuPerRequest('ask') / cpuPerRequest('guard');
console.log(
  `\nctx.ask ÷ guard pattern: server CPU/request ${ratio.toFixed(3)}× (budget ${BUDGET}×: ${ratio <= BUDGET ? 'within' : 'OVER'})`,
);
