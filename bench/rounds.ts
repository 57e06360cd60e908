/**
 * `pnpm --filter @parley/bench bench:rounds [kind …]`: instructions per modern request of each
 * contender's own work, counted by callgrind with the booking flow served in-process (no socket,
 * no HTTP parser: `http/inProcess.ts`), so a change's before and after are measured to a tenth of
 * a percent, where timings on these machines move by tens. The count includes the client's JSON
 * (the same for every contender); `bare` (a responder doing nothing) shows how much that is.
 *
 * `TOP=<n>` also prints each contender's n costliest functions (V8's compiled code named through
 * `--perf-basic-prof`); `DIFF=1` with two kinds prints where the second spends more than the
 * first, function by function. `WARM` and `N`: flows to warm up with and to count (3000 each).
 * Needs `valgrind` (Debian's package).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { selfCosts } from './http/callgrindProfile.ts';

const WARM = Number(process.env.WARM ?? 3000);
const N = Number(process.env.N ?? 3000);
const TOP = Number(process.env.TOP ?? 0);
const child = fileURLToPath(new URL('./http/inProcess.ts', import.meta.url));

async function count(kind: string): Promise<{ perRequest: number; costs: Map<string, number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-rounds-'));
  const valgrind = spawn(
    'valgrind',
    [
      '-q',
      '--tool=callgrind',
      '--dump-instr=yes',
      `--callgrind-out-file=${dir}/out.%p`,
      process.execPath,
      // One thread for the heap and the compiler, so their work is counted in a fixed order; the
      // perf map names V8's compiled code.
      '--single-threaded',
      '--perf-basic-prof',
      // The code log the perf map comes with goes to the scratch directory, not the cwd.
      '--no-logfile-per-isolate',
      `--logfile=${dir}/v8.log`,
      '--import',
      'tsx',
      child,
      kind,
      String(WARM),
      String(N),
    ],
    { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] },
  );
  const next = () => new Promise((resolve) => valgrind.once('message', resolve));
  await next();
  execFileSync('callgrind_control', ['--zero', String(valgrind.pid)], { stdio: 'ignore' });
  valgrind.send('go');
  await next();
  execFileSync('callgrind_control', ['--dump', String(valgrind.pid)], { stdio: 'ignore' });
  valgrind.kill('SIGKILL');
  // The dump made after zeroing is part 1 (`out.<pid>.1`).
  const dump = readdirSync(dir).find((file) => /\.\d+\.1$/.test(file));
  if (dump === undefined) throw new Error(`${kind}: callgrind wrote no dump`);
  const total = Number(
    /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dir, dump), 'utf8'))?.[1],
  );
  const costs =
    TOP > 0 || process.env.DIFF
      ? selfCosts(join(dir, dump), `/tmp/perf-${valgrind.pid}.map`)
      : new Map();
  rmSync(dir, { recursive: true, force: true });
  rmSync(`/tmp/perf-${valgrind.pid}.map`, { force: true });
  return { perRequest: total / (N * 3), costs };
}

const per = (instructions: number) => `${(instructions / 1000).toFixed(1)} k`;
const kinds =
  process.argv.slice(2).length > 0
    ? process.argv.slice(2)
    : ['bare', 'limit', 'parley', 'parley-ask'];
console.log(
  `instructions per modern request, in-process (callgrind; ${WARM} flows warm, ${N} counted):`,
);
const results = new Map<string, Awaited<ReturnType<typeof count>>>();
for (const kind of kinds) {
  const result = await count(kind);
  results.set(kind, result);
  console.log(`  ${kind.padEnd(12)} ${per(result.perRequest).padStart(9)}`);
  if (TOP > 0) {
    for (const [name, cost] of [...result.costs].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`      ${per(cost / (N * 3)).padStart(8)}  ${name.slice(0, 110)}`);
    }
  }
}
const [first, second] = kinds.map((kind) => results.get(kind)!);
if (process.env.DIFF && first !== undefined && second !== undefined) {
  console.log(`\n${kinds[1]} − ${kinds[0]}, by function (instructions per request):`);
  const names = new Set([...first.costs.keys(), ...second.costs.keys()]);
  const rows = [...names].map(
    (name) =>
      [name, ((second.costs.get(name) ?? 0) - (first.costs.get(name) ?? 0)) / (N * 3)] as const,
  );
  for (const [name, delta] of rows
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, Number(process.env.DIFF_TOP ?? 40))) {
    console.log(
      `  ${(delta >= 0 ? '+' : '') + (delta / 1000).toFixed(2)} k  ${name.slice(0, 110)}`,
    );
  }
}
