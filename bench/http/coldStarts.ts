/**
 * Cold start to the first modern response, Parley against the raw SDK, in fresh processes with
 * plain `node` and the built packages (`coldStart.mjs`), in interleaved turns whose order
 * rotates, so a change in the machine's load lands on each alike. A third contender, the floor,
 * does what any server of the same app must (Node's start, the app's zod, node:http, node:crypto,
 * the first response by hand), so each framework's own share can be told from what both pay.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { median } from './harness.ts';
import { MODERN_HEADERS, bookingCall } from './modernBooking.ts';

const coldScript = fileURLToPath(new URL('./coldStart.mjs', import.meta.url));

interface ColdStart {
  /** Spawn to the first modern response: Node's own bootstrap included. */
  spawn: number;
  /** The script's first line to the first modern response: import, build, listen, answer. */
  script: number;
}

type Kind = 'parley' | 'sdk' | 'floor';

/** One cold start to the first modern response (a round that asks), in a fresh process. */
async function coldStart(kind: Kind): Promise<ColdStart> {
  const started = performance.now();
  const child = fork(coldScript, [kind], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url, startedAt } = await new Promise<{ url: string; startedAt: number }>((resolve) =>
    child.once('message', (message) => resolve(message as { url: string; startedAt: number })),
  );
  const response = await fetch(url, {
    method: 'POST',
    headers: MODERN_HEADERS,
    body: bookingCall(1, {}),
  });
  const body = (await response.json()) as { result?: { resultType?: string } };
  const answered = performance.now();
  if (body.result?.resultType !== 'input_required')
    throw new Error(`${kind}: unexpected first response ${JSON.stringify(body)}`);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('exit');
  await exited;
  // Both clocks are wall-clock based (`timeOrigin`), so this spans the two processes.
  return { spawn: answered - started, script: performance.timeOrigin + answered - startedAt };
}

const ORDERS: Kind[][] = [
  ['parley', 'sdk', 'floor'],
  ['sdk', 'floor', 'parley'],
  ['floor', 'parley', 'sdk'],
];

export async function coldStarts(runs: number) {
  const starts: Record<Kind, ColdStart[]> = { parley: [], sdk: [], floor: [] };
  for (let run = 0; run < runs; run++) {
    for (const kind of ORDERS[run % ORDERS.length] as Kind[]) {
      starts[kind].push(await coldStart(kind));
    }
  }
  const of = (kind: Kind, key: keyof ColdStart) => median(starts[kind].map((cold) => cold[key]));
  // Ratios of the medians: one process start varies by tens of ms here, so a single pair says
  // little. `spawn` is cold start as the target defines it (process start to the first
  // response); `script` leaves out Node's bootstrap, which no framework can change.
  const figures = (key: keyof ColdStart) => {
    const [parley, sdk, floor] = [of('parley', key), of('sdk', key), of('floor', key)];
    return { parley, sdk, floor, ratio: parley / sdk, ownRatio: (parley - floor) / (sdk - floor) };
  };
  return { spawn: figures('spawn'), script: figures('script') };
}
