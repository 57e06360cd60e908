/**
 * The load generator of `pnpm bench`, as its own process: the server under test never shares a
 * process (or an event loop) with the load it answers. Modern-era booking flows (three rounds,
 * each echoing the state of the last) over one undici `Pool` per contender, with as many
 * connections as flows in flight.
 *
 * IPC: `{ url, concurrency, durationMs, flowCount? }` → `{ flows, requests, errors, seconds, p50,
 * p99 }` (latencies per request, in ms); `'exit'`.
 */
import { Pool } from 'undici';

import { MODERN_HEADERS, bookingCall, bookingFlow } from './modernBooking.ts';

interface Job {
  url: string;
  concurrency: number;
  durationMs: number;
  /** Instead of a duration: exactly this many flows (shared by the flows in flight). */
  flowCount?: number;
}

export interface LoadResult {
  flows: number;
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

const pools = new Map<string, Pool>();

function poolFor(url: URL, connections: number): Pool {
  const key = `${url.origin} ${connections}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new Pool(url.origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
    pools.set(key, pool);
  }
  return pool;
}

async function run({ url, concurrency, durationMs, flowCount }: Job): Promise<LoadResult> {
  const target = new URL(url);
  const pool = poolFor(target, concurrency);
  let latencies = new Float64Array(1 << 16);
  let requests = 0;
  let errors = 0;
  let flows = 0;
  let id = 1;
  const round = async (extra: object): Promise<Record<string, unknown>> => {
    const started = performance.now();
    const { statusCode, body } = await pool.request({
      method: 'POST',
      path: target.pathname,
      headers: MODERN_HEADERS,
      body: bookingCall(id++, extra),
    });
    const reply = (await body.json()) as { result?: Record<string, unknown> };
    if (requests === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[requests++] = performance.now() - started;
    if (statusCode !== 200 || reply.result === undefined) throw new Error(`status ${statusCode}`);
    return reply.result;
  };
  const started = performance.now();
  const deadline = started + durationMs;
  let left = flowCount ?? Number.POSITIVE_INFINITY;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0 && (flowCount !== undefined || performance.now() < deadline)) {
        try {
          await bookingFlow(round);
          flows++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.subarray(0, requests).sort();
  const at = (p: number) => sorted[Math.min(requests - 1, Math.floor(p * requests))] ?? 0;
  return { flows, requests, errors, seconds, p50: at(0.5), p99: at(0.99) };
}

process.on('message', (message: Job | 'exit') => {
  if (message === 'exit') {
    void Promise.all([...pools.values()].map((pool) => pool.close())).then(() => process.exit(0));
    return;
  }
  void run(message).then((result) => process.send?.({ result }));
});
process.send?.({ ready: true });
