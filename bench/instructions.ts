/**
 * `pnpm --filter @parley/bench bench:instructions [kind …]`: user-space instructions per modern
 * request, counted by valgrind's callgrind — a count, not a time, so it barely moves with the
 * machine's load (two runs of the same build agree within about half a percent here), which
 * makes it the instrument for a change's before and after. It leaves out what the kernel does
 * (socket writes), which timing includes. Needs `valgrind` (Debian's package).
 *
 * Each contender (default: limit, parley, parley-ask) runs under callgrind; one flow at a time
 * (the count depends on how requests batch, so they must not), WARM flows, then the counters are
 * zeroed, N flows run, and the counters are dumped. `BASELINE=<checkout>` adds that checkout's
 * `parley` and `parley-ask`.
 *
 * Under valgrind a server warms up slowly, and with 800 flows V8 may still be compiling (and its
 * young-generation collector, on one thread here, weighs more than it does on a normal run):
 * raise WARM (4000) for a steadier count, and use `bench:rounds` (in-process, per function) to
 * see where a change's instructions went.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { LoadClient, baselineScript, serverScript, type Kind } from './http/harness.ts';

const WARM = Number(process.env.WARM ?? 800);
const N = Number(process.env.N ?? 600);

async function count(client: LoadClient, kind: Kind, script: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-callgrind-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${dir}/out.%p`,
      process.execPath,
      // One thread for the heap and the compiler: their work is counted in a fixed order.
      '--single-threaded',
      '--import',
      'tsx',
      '--expose-gc',
      script,
      kind,
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] },
  );
  const url = await new Promise<string>((resolve) =>
    child.once('message', (message) => resolve((message as { url: string }).url)),
  );
  await client.runFlows(url, 1, WARM);
  execFileSync('callgrind_control', ['--zero', String(child.pid)], { stdio: 'ignore' });
  await client.runFlows(url, 1, N);
  execFileSync('callgrind_control', ['--dump', String(child.pid)], { stdio: 'ignore' });
  child.kill('SIGKILL');
  let total = 0;
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'utf8');
    // The dump after zeroing is part 1 and later; part 0 (or none) is what ran before.
    const part = /^part: (\d+)/m.exec(text)?.[1];
    const events = /^(?:totals|summary): (\d+)/m.exec(text)?.[1];
    if (part !== undefined && part !== '0' && events !== undefined) total += Number(events);
  }
  rmSync(dir, { recursive: true, force: true });
  return total / (N * 3);
}

const kinds = (
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['limit', 'parley', 'parley-ask']
) as Kind[];
const client = new LoadClient();
await client.ready;
console.log(
  `user-space instructions per modern request (callgrind; ${WARM} flows warm, ${N} counted):`,
);
const counts = new Map<string, number>();
for (const kind of kinds) {
  counts.set(kind, await count(client, kind, serverScript));
  console.log(`  ${kind.padEnd(18)} ${(counts.get(kind)! / 1000).toFixed(1).padStart(8)} k`);
  if (baselineScript !== undefined && kind.startsWith('parley')) {
    const base = await count(client, kind, baselineScript);
    console.log(`  ${`${kind} (baseline)`.padEnd(18)} ${(base / 1000).toFixed(1).padStart(8)} k`);
  }
}
const limit = counts.get('limit');
if (limit !== undefined) {
  for (const [kind, value] of counts) {
    if (kind !== 'limit') console.log(`  ${kind} ÷ limit: ${(value / limit).toFixed(2)}`);
  }
}
await client.close();
