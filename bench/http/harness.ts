/**
 * What every part of `pnpm bench` stands on: each contender server in a process of its own
 * (`serverProcess.ts`), the load in another (`loadClient.ts`), the CPU a server spent in a window
 * of load, and the statistics the verdicts are read from.
 *
 * The machines are shared and noisy (a neighbour's burst can double one window's CPU), so
 * contenders are never measured one after another: all run from the start, and the load visits
 * them in short turns, in an order that rotates every turn. A turn's ratio compares contenders
 * measured seconds apart; the verdict is the median of those ratios, with their quartiles.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { LoadResult } from './loadClient.ts';

export type Kind =
  'bare' | 'limit' | 'parley' | 'parley-ask' | 'parley-off' | 'parley-otel' | 'sdk' | 'sdkSessions';

export const serverScript = fileURLToPath(new URL('./serverProcess.ts', import.meta.url));
const loadScript = fileURLToPath(new URL('./loadClient.ts', import.meta.url));

/** `BASELINE=<another checkout>`: that checkout's contenders (built there) run beside these. */
export const BASELINE = process.env.BASELINE;
export const baselineScript =
  BASELINE === undefined ? undefined : join(BASELINE, 'bench/http/serverProcess.ts');

export interface Contender {
  child: ChildProcess;
  url: string;
}

/** Send `message` to a child and resolve with the `key` of its first reply that has one. */
export function ask<T>(child: ChildProcess, message: unknown, key: string): Promise<T> {
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

export async function start(kind: Kind, script = serverScript): Promise<Contender> {
  const child = fork(script, [kind], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve) =>
    child.once('message', (message) => resolve((message as { url: string }).url)),
  );
  return { child, url };
}

export async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('exit');
  await exited;
}

/** CPU time (user + system) the child has spent so far, in ms. */
export async function cpuOf(child: ChildProcess): Promise<number> {
  const cpu = await ask<{ user: number; system: number }>(child, 'cpu', 'cpu');
  return (cpu.user + cpu.system) / 1000;
}

/** The load generator's process. */
export class LoadClient {
  readonly #child: ChildProcess;
  readonly ready: Promise<void>;

  constructor() {
    this.#child = fork(loadScript, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve) => this.#child.once('message', () => resolve()));
  }

  /** `concurrency` modern booking flows in flight against `url` for `durationMs`. */
  run(url: string, concurrency: number, durationMs: number): Promise<LoadResult> {
    return ask<LoadResult>(this.#child, { url, concurrency, durationMs }, 'result');
  }

  /** Exactly `flowCount` modern booking flows against `url`, `concurrency` at a time. */
  runFlows(url: string, concurrency: number, flowCount: number): Promise<LoadResult> {
    return ask<LoadResult>(this.#child, { url, concurrency, durationMs: 0, flowCount }, 'result');
  }

  close(): Promise<void> {
    return stop(this.#child);
  }
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/** The `q` quantile, interpolated between the two nearest values. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.ceil(at);
  return (
    (sorted[below] as number) +
    ((sorted[above] as number) - (sorted[below] as number)) * (at - below)
  );
}

/** A spread of per-turn ratios: median, quartiles, range. */
export interface Spread {
  median: number;
  q1: number;
  q3: number;
  min: number;
  max: number;
  each: number[];
}

export function spreadOf(each: number[]): Spread {
  return {
    median: median(each),
    q1: quantile(each, 0.25),
    q3: quantile(each, 0.75),
    min: Math.min(...each),
    max: Math.max(...each),
    each,
  };
}

export const showSpread = (s: Spread, digits = 2): string =>
  `${s.median.toFixed(digits)} (quartiles ${s.q1.toFixed(digits)}–${s.q3.toFixed(digits)})`;

/** One turn of load on one contender: what the load generator saw, and the server's CPU. */
export interface Turn extends LoadResult {
  cpuMs: number;
}

export interface Running extends Contender {
  name: string;
  turns: Turn[];
}

export const cpuPerRequest = (t: Turn): number => t.cpuMs / t.requests;

/**
 * Start every contender, warm each, then load them in `turns` turns of `turnMs`, one at a time,
 * in an order that rotates each turn (and reverses every other), so none is always measured
 * right after a given other. `load` runs one turn's load against a URL.
 */
export async function interleaved(
  entries: readonly { name: string; kind: Kind; script?: string | undefined }[],
  options: {
    turns: number;
    turnMs: number;
    warm: (url: string) => Promise<void>;
    load: (url: string, durationMs: number) => Promise<LoadResult>;
  },
): Promise<Running[]> {
  const running: Running[] = [];
  for (const entry of entries) {
    running.push({ name: entry.name, ...(await start(entry.kind, entry.script)), turns: [] });
  }
  for (const contender of running) await options.warm(contender.url);
  for (let index = 0; index < options.turns; index++) {
    const shift = index % running.length;
    const order = [...running.slice(shift), ...running.slice(0, shift)];
    for (const contender of index % 2 === 0 ? order : order.reverse()) {
      const before = await cpuOf(contender.child);
      const result = await options.load(contender.url, options.turnMs);
      const cpuMs = (await cpuOf(contender.child)) - before;
      contender.turns.push({ ...result, cpuMs });
    }
  }
  await Promise.all(running.map((contender) => stop(contender.child)));
  return running;
}

/** `a ÷ b` per turn (each pair measured in the same turn), by `per`. */
export function ratios(a: Running, b: Running, per: (t: Turn) => number): Spread {
  return spreadOf(a.turns.map((t, index) => per(t) / per(b.turns[index] as Turn)));
}
