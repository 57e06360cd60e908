/**
 * Under load: many modern flows in flight at once against each of the limit, Parley and the SDK,
 * from the load generator's own process. The contenders run side by side and the load visits
 * them in turns (rotating), as everywhere in `pnpm bench`; RSS is sampled while they serve.
 */
import { ask, start, stop, type Contender, type Kind, type LoadClient } from './harness.ts';

export interface LoadFigures {
  name: string;
  /** Requests answered per second, over all turns. */
  throughput: number;
  /** Latency per request (ms), the median of the turns' percentiles. */
  p50: number;
  p99: number;
  /** The most resident memory seen while serving. */
  peakRss: number;
  errors: number;
}

const CONTENDERS: readonly { name: string; kind: Kind }[] = [
  { name: 'limit', kind: 'limit' },
  { name: 'parley', kind: 'parley' },
  { name: 'sdk', kind: 'sdk' },
];

const middle = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** Load the contenders at `concurrency` flows; limit first, then Parley, then the SDK. */
export async function loadTest(
  client: LoadClient,
  options: { concurrency: number; durationMs: number; turns: number; warmMs: number },
): Promise<LoadFigures[]> {
  const running: (Contender & {
    name: string;
    requests: number;
    seconds: number;
    p50: number[];
    p99: number[];
    peakRss: number;
    errors: number;
  })[] = [];
  for (const { name, kind } of CONTENDERS) {
    const contender = await start(kind);
    running.push({
      ...contender,
      name,
      requests: 0,
      seconds: 0,
      p50: [],
      p99: [],
      peakRss: 0,
      errors: 0,
    });
  }
  for (const r of running) await client.run(r.url, options.concurrency, options.warmMs);
  for (let turn = 0; turn < options.turns; turn++) {
    const shift = turn % running.length;
    for (const r of [...running.slice(shift), ...running.slice(0, shift)]) {
      let sampling = true;
      const sample = (async () => {
        while (sampling) {
          r.peakRss = Math.max(r.peakRss, await ask<number>(r.child, 'rss', 'rss'));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const result = await client.run(r.url, options.concurrency, options.durationMs);
      sampling = false;
      await sample;
      r.requests += result.requests;
      r.seconds += result.seconds;
      r.p50.push(result.p50);
      r.p99.push(result.p99);
      r.errors += result.errors;
    }
  }
  await Promise.all(running.map((r) => stop(r.child)));
  return running.map((r) => ({
    name: r.name,
    throughput: r.requests / r.seconds,
    p50: middle(r.p50),
    p99: middle(r.p99),
    peakRss: r.peakRss,
    errors: r.errors,
  }));
}
