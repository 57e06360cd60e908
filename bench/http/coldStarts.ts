/**
 * Cold start to the first modern response, Parley against the raw SDK, in fresh processes with
 * plain `node` and the built packages (`coldStart.mjs`), in interleaved pairs whose order
 * alternates, so a change in the machine's load lands on both alike.
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

/** One cold start to the first modern response (a round that asks), in a fresh process. */
async function coldStart(kind: 'parley' | 'sdk'): Promise<ColdStart> {
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

export async function coldStarts(runs: number) {
  const parley: ColdStart[] = [];
  const sdk: ColdStart[] = [];
  for (let run = 0; run < runs; run++) {
    if (run % 2 === 0) {
      parley.push(await coldStart('parley'));
      sdk.push(await coldStart('sdk'));
    } else {
      sdk.push(await coldStart('sdk'));
      parley.push(await coldStart('parley'));
    }
  }
  const of = (list: ColdStart[], key: keyof ColdStart) => median(list.map((cold) => cold[key]));
  // The verdict is on import + first response, from the script's first line: the ratio of the
  // two medians (one process start varies by tens of ms here, so a single pair says little).
  const pairs = parley.map((cold, run) => cold.script / (sdk[run] as ColdStart).script);
  return {
    parley: of(parley, 'script'),
    sdk: of(sdk, 'script'),
    ratio: of(parley, 'script') / of(sdk, 'script'),
    pairs: { min: Math.min(...pairs), max: Math.max(...pairs) },
    parleySpawn: of(parley, 'spawn'),
    sdkSpawn: of(sdk, 'spawn'),
  };
}
